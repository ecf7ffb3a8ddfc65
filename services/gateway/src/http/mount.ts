import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { BadRequest } from '@sitelens/contracts';
import type { GatewayDeps } from '../deps';
import { requestOrigin } from './origin';
import type { AnyRoute } from './route';
import { parseRouteInput } from './route-input';

/** Middleware that runs before a route's handler (auth, rate limits); hosted mode fills it. */
export type RouteGuard = (route: AnyRoute) => RequestHandler[];

/**
 * Every `/v1/...` path also answers under `/api/v1/...`: the Supacrawler SDKs put `/api` in their
 * base URL (hosted) or not (self-hosted), and both must reach the same handler.
 */
export function routePaths(route: Pick<AnyRoute, 'paths'>): string[] {
  const paths = new Set(route.paths);
  for (const path of route.paths) if (path.startsWith('/v1/')) paths.add(`/api${path}`);
  return [...paths];
}

/**
 * JSON bodies up to 1 MiB, parsed per route after its guard: an unauthenticated or rate-limited
 * request is refused without its body being read, and a malformed body is the route's error.
 */
export const jsonBody: RequestHandler = express.json({ limit: '1mb', strict: true, type: ['application/json', 'application/*+json'] });

export function mountRoute(app: Express, route: AnyRoute, deps: GatewayDeps, guard: RouteGuard): void {
  const handler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (route.body && req.body === undefined) {
        throw new BadRequest('The request body must be JSON (Content-Type: application/json)');
      }
      const { body, query, params } = parseRouteInput(route, req);
      const log = deps.logger.child({ reqId: res.locals.requestId as string });
      const result = await route.handler({
        body,
        query,
        params,
        req,
        res,
        deps,
        log,
        origin: requestOrigin(req, deps.config.publicBaseUrl),
      });
      if (result === undefined || res.headersSent) return;
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      res.status(result.status ?? 200).json(result.body);
    } catch (error) {
      next(error);
    }
  };
  const shapeErrors: ErrorRequestHandler[] = route.shapeError
    ? [(error, req, _res, next) => next((route.shapeError as NonNullable<AnyRoute['shapeError']>)(error, req))]
    : [];
  for (const path of routePaths(route)) {
    app[route.method](path, ...guard(route), ...(route.body ? [jsonBody] : []), handler, ...shapeErrors);
  }
}
