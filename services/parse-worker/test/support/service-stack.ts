import { loadConfig, type Env } from '@sitelens/config';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { startParseWorker, type RunningParseWorker } from '../../src/main';
import type { ContextOptions } from '../../src/context';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import type { AuthGuardOptions } from '@sitelens/gateway';
import { contentWorkersForTests, schemaCheckerForTests, testRedisUrl } from '@sitelens/testkit';

export interface ServiceStack {
  origin: string;
  gateway: TestGateway;
  worker: RunningParseWorker;
  close(): Promise<void>;
}

/**
 * The gateway (real app, real Redis) and a parse worker in this process on the same queue prefix,
 * both configured from `env`: what a client of /v1/scrape and /v1/crawl talks to.
 */
export async function startServiceStack(
  env: Env = {},
  auth: AuthGuardOptions = {},
  options: Pick<ContextOptions, 'contentWorkers' | 'resolve' | 'browserArgs'> = {},
): Promise<ServiceStack> {
  const gateway = await startTestGateway(env, undefined, auth);
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: gateway.config.redis.prefix,
    DATA_DIR: gateway.config.storage.dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const logger = createLogger({ level: 'silent', service: 'parse-worker-test' });
  const metrics = createMetrics({ service: 'parse-worker-test', collectDefaults: false });
  const worker = await startParseWorker(config, logger, metrics, {
    schemaChecker: schemaCheckerForTests(),
    ...options,
    contentWorkers: options.contentWorkers ?? contentWorkersForTests(),
  });
  return {
    origin: gateway.origin,
    gateway,
    worker,
    async close() {
      await worker.close();
      await gateway.close();
    },
  };
}

/** Polls `read` until `done` holds (or the time is up), returning every value seen. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, stepMs = 25): Promise<T[]> {
  const seen: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    seen.push(value);
    if (done(value)) return seen;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
