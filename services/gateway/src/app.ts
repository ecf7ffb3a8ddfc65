import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import './http/request-context';
import type { GatewayDeps } from './deps';
import { mountAdminDashboard } from './http/admin-dashboard';
import { errorHandler, notFoundHandler } from './http/errors';
import { mountRoute, type RouteGuard } from './http/mount';
import { SECURITY_HEADERS } from './http/security-headers';
import type { AnyRoute } from './http/route';
import { allRoutes } from './routes';

export interface AppOptions {
  routes?: AnyRoute[];
  guard?: RouteGuard;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The HTTP application. No I/O at build time: everything it touches comes in through `deps`. */
export function createApp(deps: GatewayDeps, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    req.receivedAt = Date.now();
    const given = req.get('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    deps.metrics.httpInFlight.inc({ method: req.method });
    res.once('close', () => deps.metrics.httpInFlight.dec({ method: req.method }));
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // Mounted sub-apps (the queue dashboard) name their route in res.locals.route.
      const route = (res.locals.route as string | undefined) ?? (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const labels = { method: req.method, route, status: String(res.statusCode) };
      deps.metrics.httpRequests.inc(labels);
      deps.metrics.httpDuration.observe(labels, seconds);
      deps.logger.info({ reqId: id, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) }, 'request');
    });
    next();
  });

  mountAdminDashboard(app, deps);

  const guard: RouteGuard = options.guard ?? (() => []);
  // Hosted mode keeps /metrics off the public port: the ops listener (OPS_HTTP_ADDR) serves it.
  for (const route of options.routes ?? allRoutes({ metrics: deps.config.mode === 'local' })) mountRoute(app, route, deps, guard);

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
