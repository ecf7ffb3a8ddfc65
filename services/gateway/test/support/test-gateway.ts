import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Queue } from 'bullmq';
import { loadConfig, type Config, type Env } from '@sitelens/config';
import { QUEUES } from '@sitelens/contracts';
import { createQueueEvents, createRedis, createScreenshotQueue } from '@sitelens/queue';
import { FsBlobStore, type BlobStore } from '@sitelens/storage';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { createApp } from '../../src/app';
import type { GatewayDeps } from '../../src/deps';
import { testRedisUrl, uniquePrefix } from '../../../../test/support/env';

export interface TestGateway {
  origin: string;
  deps: GatewayDeps;
  config: Config;
  store: BlobStore;
  close(): Promise<void>;
}

/** A real gateway app on a free port, with real Redis (unique prefix) and an fs store in a temp dir. */
export async function startTestGateway(env: Env = {}, store?: BlobStore): Promise<TestGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelens-gw-'));
  const config = loadConfig({ REDIS_URL: testRedisUrl(), QUEUE_PREFIX: uniquePrefix('gw'), DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const logger = createLogger({ level: 'silent', service: 'gateway-test' });
  const redis = createRedis(config.redis.url, 'client');
  redis.on('error', () => undefined);
  await new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));
  const eventsConnection = createRedis(config.redis.url, 'worker');
  const settings = { connection: redis, prefix: config.redis.prefix, retentionMs: config.jobRetentionMs };
  const screenshot = createScreenshotQueue(settings);
  const events = createQueueEvents(QUEUES.screenshot, { connection: eventsConnection, prefix: config.redis.prefix });
  await events.waitUntilReady();
  const blobStore = store ?? new FsBlobStore(path.join(dataDir, 'blobs'), 'test-secret');
  const deps: GatewayDeps = {
    config,
    logger,
    metrics: createMetrics({ service: 'gateway-test', collectDefaults: false }),
    redis,
    queues: { screenshot },
    events: { screenshot: events },
    allQueues: [screenshot as unknown as Queue],
    store: blobStore,
    startedAt: Date.now(),
    version: 'test',
  };
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    deps,
    config,
    store: blobStore,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await events.close();
      await screenshot.obliterate({ force: true }).catch(() => undefined);
      await screenshot.close();
      redis.disconnect();
      eventsConnection.disconnect();
    },
  };
}

async function readResponse(response: Response) {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json: json as Record<string, unknown>, text };
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return readResponse(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export async function getJson(url: string, headers: Record<string, string> = {}) {
  return readResponse(await fetch(url, { headers }));
}
