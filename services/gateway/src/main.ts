import type { Server } from 'node:http';
import type { Queue } from 'bullmq';
import type { Config } from '@sitelens/config';
import { QUEUES } from '@sitelens/contracts';
import { createQueueEvents, createRedis, createScreenshotQueue } from '@sitelens/queue';
import { createBlobStore } from '@sitelens/storage';
import { createMetrics, type Logger, type Metrics } from '@sitelens/telemetry';
import { createApp } from './app';
import type { GatewayDeps } from './deps';

export interface RunningGateway {
  server: Server;
  deps: GatewayDeps;
  close(): Promise<void>;
}

const VERSION: string = (require('../package.json') as { version: string }).version;

/** Composition root of the gateway: builds its pieces, serves HTTP, and tears down in order. */
export async function startGateway(config: Config, logger: Logger, metrics: Metrics = createMetrics({ service: 'gateway' })): Promise<RunningGateway> {
  const redis = createRedis(config.redis.url, 'client');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const eventsConnection = createRedis(config.redis.url, 'worker');
  eventsConnection.on('error', () => undefined);
  const settings = { connection: redis, prefix: config.redis.prefix, retentionMs: config.jobRetentionMs };
  const screenshot = createScreenshotQueue(settings);
  screenshot.on('error', (error) => logger.warn({ err: error.message }, 'screenshot queue problem'));
  const screenshotEvents = createQueueEvents(QUEUES.screenshot, { connection: eventsConnection, prefix: config.redis.prefix });
  screenshotEvents.on('error', () => undefined);
  const store = await createBlobStore(config.storage);

  const allQueues: Queue[] = [screenshot as unknown as Queue];
  const deps: GatewayDeps = {
    config,
    logger,
    metrics,
    redis,
    queues: { screenshot },
    events: { screenshot: screenshotEvents },
    allQueues,
    store,
    startedAt: Date.now(),
    version: VERSION,
  };
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const done = (error?: Error) => (error ? reject(error) : resolve(listening));
    const listening = config.http.host ? app.listen(config.http.port, config.http.host, done) : app.listen(config.http.port, done);
  });
  // Long-polls hold requests up to 60 s; keep idle keep-alive sockets shorter than proxies expect.
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  logger.info({ address, mode: config.mode, storage: store.driver }, 'gateway listening');

  return {
    server,
    deps,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await screenshotEvents.close().catch(() => undefined);
      await screenshot.close().catch(() => undefined);
      redis.disconnect();
      eventsConnection.disconnect();
    },
  };
}
