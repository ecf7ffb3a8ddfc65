import { createHash, timingSafeEqual } from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { AppError, Unauthorized } from '@sitelens/contracts';
import type { GatewayDeps } from '../deps';
import { jsonBody } from './mount';
import { redactJobData } from './redact-job-data';

export const ADMIN_DASHBOARD_PATH = '/admin/queues';

/** Compares digests so neither the length nor the content of the token leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The secret a request presents: a Bearer token, or the password of Basic credentials. */
function presentedSecret(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/**
 * Admits `Authorization: Bearer <ADMIN_TOKEN>`. Basic credentials with the token as password are
 * accepted too: a browser asks for them on the 401 and then sends them with the dashboard's own
 * API calls, which a Bearer header typed once could not follow.
 */
export function adminTokenGuard(token: string): RequestHandler {
  return (req, res, next) => {
    // One metrics label for the whole dashboard, whatever its inner routes are.
    res.locals.route = ADMIN_DASHBOARD_PATH;
    res.setHeader('Cache-Control', 'no-store');
    const given = presentedSecret(req.get('authorization'));
    if (given !== undefined && sameSecret(given, token)) return next();
    res.setHeader('WWW-Authenticate', ['Bearer realm="sitelens-admin"', 'Basic realm="sitelens-admin", charset="UTF-8"']);
    next(new Unauthorized('Invalid or missing admin token'));
  };
}

/**
 * The dashboard only reads: bull-board's read-only mode hides and refuses its actions, and any
 * request that is not a read is refused here too, whichever of its routes it names.
 */
const readOnly: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  next(new AppError('FORBIDDEN', 'The queue dashboard is read-only'));
};

/**
 * Mounts the bull-board queue dashboard behind the admin token; off when ADMIN_TOKEN is unset.
 * Read-only, and job data is shown without the secrets clients put in it (webhook_headers...).
 */
export function mountAdminDashboard(app: Express, deps: GatewayDeps): void {
  const token = deps.config.adminToken;
  if (!token) return;
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(ADMIN_DASHBOARD_PATH);
  const queues = deps.allQueues.map((queue) => {
    const adapter = new BullMQAdapter(queue, { readOnlyMode: true });
    adapter.setFormatter('data', redactJobData);
    return adapter;
  });
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'Sitelens queues' } } });
  // Bodies are parsed here, ahead of the dashboard's own parser, so a malformed one gets the
  // service's JSON error like every other route.
  app.use(ADMIN_DASHBOARD_PATH, adminTokenGuard(token), jsonBody, readOnly, serverAdapter.getRouter() as RequestHandler);
}
