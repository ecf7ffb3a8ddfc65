import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from './logger';

/** A readiness check: resolves true when the component it names is usable. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

export interface OpsServerOptions {
  /** Empty host listens on every interface. Port 0 picks a free port (tests). */
  address: { host: string; port: number };
  registry: Registry;
  logger: Logger;
  /** Checks `/readyz` runs, by the name reported when one fails. */
  readiness?: Record<string, ReadinessCheck>;
  /** Per-check budget; a check slower than this counts as failed. */
  checkTimeoutMs?: number;
  /** Runs before each /metrics answer, to read gauges sampled on scrape (queue depth). */
  beforeMetrics?: () => Promise<void>;
}

export interface OpsServer {
  server: Server;
  /** `http://host:port` the server answers at (loopback when it listens everywhere). */
  url: string;
  close(): Promise<void>;
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    return await Promise.race([Promise.resolve().then(check), timeout]);
  } catch {
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json; charset=utf-8'): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * The small HTTP listener a worker process (and a hosted-mode gateway) has for its operators: `/healthz` (liveness: the
 * event loop answers; never depends on Redis, so an outage does not restart every worker),
 * `/readyz` (every readiness check passes) and `/metrics` (Prometheus text). Nothing else.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const checks = Object.entries(options.readiness ?? {});
  const checkTimeoutMs = options.checkTimeoutMs ?? 1_000;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, JSON.stringify({ status: 'method not allowed' }));
    }
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return send(res, 200, JSON.stringify({ status: 'ok' }));
    if (path === '/readyz') {
      const results = await Promise.all(checks.map(async ([name, check]) => [name, await runCheck(check, checkTimeoutMs)] as const));
      const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
      const body = {
        status: failing.length === 0 ? 'ok' : 'unavailable',
        checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'failing'])),
      };
      return send(res, failing.length === 0 ? 200 : 503, JSON.stringify(body));
    }
    if (path === '/metrics') {
      await options.beforeMetrics?.();
      return send(res, 200, await options.registry.metrics(), options.registry.contentType);
    }
    return send(res, 404, JSON.stringify({ status: 'not found' }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'ops request failed');
      if (!res.headersSent) send(res, 500, JSON.stringify({ status: 'error' }));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.address.port, options.address.host || undefined, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host =
    !options.address.host || options.address.host === '0.0.0.0' || options.address.host === '::' ? '127.0.0.1' : options.address.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound.port}`;
  options.logger.info({ address: bound }, 'ops server listening');

  return {
    server,
    url,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
