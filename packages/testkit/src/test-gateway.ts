import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig, type Config, type Env } from '@sitelens/config';
import { FsBlobStore, type BlobStore } from '@sitelens/storage';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { buildGatewayDeps, createApp, createAuthGuard, type AuthGuardOptions, type GatewayDeps } from '@sitelens/gateway';
import { testRedisUrl, uniquePrefix } from './env';
import { schemaCheckerForTests } from './content-workers';

export interface TestGateway {
  origin: string;
  deps: GatewayDeps;
  config: Config;
  store: BlobStore;
  close(): Promise<void>;
}

/** A real gateway app on a free port, with real Redis (unique prefix) and an fs store in a temp dir. */
/** In hosted mode (`MODE: 'hosted'` in env) the app gets the real auth guard; `auth` tunes it. */
export async function startTestGateway(
  env: Env = {},
  store?: BlobStore,
  auth: AuthGuardOptions = {},
  options: { waitForRedis?: boolean } = {},
): Promise<TestGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelens-gw-'));
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: uniquePrefix('gw'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const logger = createLogger({ level: 'silent', service: 'gateway-test' });
  const blobStore = store ?? new FsBlobStore(path.join(dataDir, 'blobs'), 'test-secret');
  const metrics = createMetrics({ service: 'gateway-test', collectDefaults: false });
  const built = await buildGatewayDeps(config, {
    logger,
    metrics,
    version: 'test',
    store: blobStore,
    schemaChecker: schemaCheckerForTests(),
  });
  const { deps } = built;
  if (options.waitForRedis !== false) {
    await new Promise<void>((resolve) => (deps.redis.status === 'ready' ? resolve() : deps.redis.once('ready', () => resolve())));
    await Promise.all(Object.values(deps.events).map((stream) => stream?.waitUntilReady()));
  }
  const app = createApp(deps, { guard: createAuthGuard(deps, auth) });
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
      if (deps.redis.status === 'ready') {
        for (const queue of Object.values(deps.queues)) await queue.obliterate({ force: true }).catch(() => undefined);
      }
      await built.close();
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
