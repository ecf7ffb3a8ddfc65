import type { Server } from 'node:http';
import type { Config } from '@sitelens/config';
import { createMetrics, startOpsServer, type Logger, type Metrics, type OpsServer } from '@sitelens/telemetry';
import { createApp } from './app';
import { createAuthGuard } from './auth/guard';
import { buildGatewayDeps, type GatewayDeps } from './deps';
import { answerClientError } from './http/client-error';
import { collectQueueDepth } from './jobs/queue-depth';

export interface RunningGateway {
  server: Server;
  deps: GatewayDeps;
  /** Hosted mode's ops listener (OPS_HTTP_ADDR): /metrics, /healthz, /readyz off the public port. */
  ops?: OpsServer;
  close(): Promise<void>;
}

const VERSION: string = (require('../package.json') as { version: string }).version;

/** Composition root of the gateway: builds its pieces, serves HTTP, and tears down in order. */
export async function startGateway(
  config: Config,
  logger: Logger,
  metrics: Metrics = createMetrics({ service: 'gateway' }),
): Promise<RunningGateway> {
  const built = await buildGatewayDeps(config, { logger, metrics, version: VERSION });
  const { deps } = built;
  const app = createApp(deps, { guard: createAuthGuard(deps) });
  const server = await new Promise<Server>((resolve, reject) => {
    const done = (error?: Error) => (error ? reject(error) : resolve(listening));
    const listening = config.http.host ? app.listen(config.http.port, config.http.host, done) : app.listen(config.http.port, done);
  });
  // Long-polls hold requests up to 60 s; keep idle keep-alive sockets shorter than proxies expect.
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  const address = server.address();
  logger.info({ address, mode: config.mode, storage: deps.store.driver }, 'gateway listening');
  // Hosted mode: metrics on the ops port only (the API port answers 404 for /metrics). With
  // ROLE=all this listener is the process's one, carrying the workers' metrics too.
  const ops =
    config.mode === 'hosted' && config.opsHttp
      ? await startOpsServer({
          address: config.opsHttp,
          registry: metrics.registry,
          logger,
          readiness: { redis: () => deps.redis.status === 'ready' },
          beforeMetrics: () => collectQueueDepth(deps.allQueues, deps.metrics.queueJobs),
        }).catch(async (error: unknown) => {
          server.close();
          await built.close();
          throw error;
        })
      : undefined;

  return {
    server,
    deps,
    ops,
    async close() {
      // Long-polls answer now (the job's current state; clients poll again elsewhere), so closing
      // waits only for requests that are quick anyway. Keep-alive connections go as soon as their
      // last answer is out: idle ones now, the others when they turn idle.
      built.stop();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearInterval(sweep);
      await built.close();
      await ops?.close();
    },
  };
}
