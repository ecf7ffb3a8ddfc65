import { Queue } from 'bullmq';
import { loadConfig } from '@sitelens/config';
import { QUEUES } from '@sitelens/contracts';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { startParseWorker, type RunningParseWorker } from '../src/main';
import { testRedisUrl, uniquePrefix, sampleValue } from '@sitelens/testkit';

const logger = createLogger({ level: 'silent', service: 'parse-worker-test' });

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('parse worker ops endpoint', () => {
  const prefix = uniquePrefix('pw-ops');
  let running: RunningParseWorker;
  let queue: Queue;

  beforeAll(async () => {
    const config = loadConfig({
      ROLE: 'parse-worker',
      OPS_HTTP_ADDR: '127.0.0.1:0',
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    });
    const metrics = createMetrics({ service: 'parse-worker', collectDefaults: false });
    running = await startParseWorker(config, logger, metrics, {
      handlers: { scrape: async () => ({ stored_result: { key: 'results/ops-test.json', bytes: 2 } }) },
    });
    queue = new Queue(QUEUES.parse, { connection: { url: testRedisUrl() }, prefix });
  });
  afterAll(async () => {
    await running.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  });

  it('serves liveness and, once Redis is connected, readiness', async () => {
    expect(running.ops).toBeDefined();
    expect((await fetch(`${running.ops!.url}/healthz`)).status).toBe(200);
    const ready = await eventually(
      () => fetch(`${running.ops!.url}/readyz`),
      (r) => r.status === 200,
    );
    expect(await ready.json()).toEqual({ status: 'ok', checks: { redis: 'ok', worker: 'ok' } });
  });

  it('exports jobs by queue and outcome, and their duration', async () => {
    await queue.add('scrape', { timeoutSeconds: 30, acceptedAt: Date.now() });
    await queue.add('watch', { timeoutSeconds: 30, acceptedAt: Date.now() }, { attempts: 1 });
    const text = await eventually(
      () => fetch(`${running.ops!.url}/metrics`).then((r) => r.text()),
      (t) => /outcome="failed"/.test(t) && /outcome="completed"/.test(t),
    );
    for (const [name, outcome] of [
      ['scrape', 'completed'],
      ['watch', 'failed'],
    ]) {
      const labels = { queue: 'parse', name, outcome, service: 'parse-worker' };
      expect([name, sampleValue(text, 'sitelens_jobs_total', labels)]).toEqual([name, 1]);
      expect([name, sampleValue(text, 'sitelens_job_duration_seconds_count', labels)]).toEqual([name, 1]);
    }
  });
});

describe('parse worker with ROLE=all', () => {
  it('leaves probes and metrics to the gateway', async () => {
    const config = loadConfig({ ROLE: 'all', REDIS_URL: testRedisUrl(), QUEUE_PREFIX: uniquePrefix('pw-all'), LOG_LEVEL: 'silent' });
    const running = await startParseWorker(config, logger, createMetrics({ service: 'parse-worker', collectDefaults: false }));
    try {
      expect(running.ops).toBeUndefined();
    } finally {
      await running.close();
    }
  });
});
