/**
 * Fault: Redis goes away. The gateway answers every request that needs it with a fast 503
 * UNAVAILABLE (never a hang, never a 500), its health check and the worker's readiness say why,
 * liveness stays green; when Redis returns (same address, AOF data) both recover on their own:
 * old jobs are readable again and new jobs complete. Runs on a private redis-server of its own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startService, startRedisServer, type RedisServer } from '@sitelens/testkit';
import {
  awaitShot,
  createShot,
  stackEnv,
  startGatewayProcess,
  startHoldingSite,
  startWorkerProcess,
  until,
  type HoldingSite,
  type Json,
  type RunningGateway,
  type RunningWorker,
} from './support/stack';

/**
 * A request answered within this budget counts as "fast": what it rules out is a hang (the client
 * gives up at 10 s, a long poll would wait 30 s), so it leaves room for a loaded machine.
 */
const FAST_MS = 5_000;

async function timed(url: string, init?: RequestInit): Promise<{ status: number; ms: number; body: Json }> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = (await response.json()) as Json;
  return { status: response.status, ms: performance.now() - started, body };
}

describe('fault: Redis outage', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelens-fault-redis-'));
  let redis: RedisServer;
  let site: HoldingSite;
  let gateway: RunningGateway;
  let worker: RunningWorker;
  let before: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedisServer({ dir, appendonly: true });
    site = await startHoldingSite();
    env = stackEnv({ label: 'fault-redis', redisUrl: redis.url });
    gateway = await startGatewayProcess(env);
    worker = await startWorkerProcess(env);
    before = await createShot(gateway.origin, site.pageUrl('before'));
    expect((await awaitShot(gateway.origin, before, 30_000)).status).toBe('completed');
  });

  afterAll(async () => {
    await gateway?.proc.stop();
    await worker?.cleanup();
    await site?.close();
    await redis?.stop();
  });

  it('answers 503 UNAVAILABLE fast while Redis is down, on every route that needs it', async () => {
    await redis.stop('SIGKILL');
    const create = () =>
      timed(`${gateway.origin}/v1/screenshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.pageUrl('during'), device: 'custom', width: 400, height: 300 }),
      });
    const calls = [
      create,
      create,
      () => timed(`${gateway.origin}/v1/screenshots?job_id=${before}`),
      () => timed(`${gateway.origin}/v1/screenshots?job_id=${before}&wait=30`),
      () => timed(`${gateway.origin}/api/v1/crawl/${before}`),
    ];
    for (const call of calls) {
      const { status, ms, body } = await call();
      expect([status, body.success, body.code, typeof body.error]).toEqual([503, false, 'UNAVAILABLE', 'string']);
      expect(ms).toBeLessThan(FAST_MS);
    }

    const health = await timed(`${gateway.origin}/v1/health`);
    expect(health.status).toBe(503);
    expect(health.body.components.redis).toBe('unreachable');
    expect(health.ms).toBeLessThan(2 * FAST_MS);
    // Metrics still scrape (queue depth series drop out rather than go stale).
    const metrics = await fetch(`${gateway.origin}/metrics`, { signal: AbortSignal.timeout(5_000) });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).not.toMatch(/^sitelens_queue_jobs\{/m);

    // The worker is alive but not ready: an orchestrator stops routing to it, never restarts it.
    expect((await fetch(`${worker.opsUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${worker.opsUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as Json).checks.redis).toBe('failing');
  });

  it('recovers once Redis is back: old jobs readable, new jobs complete', async () => {
    redis = await startRedisServer({ dir, appendonly: true, port: redis.port });
    await until(async () => (await fetch(`${gateway.origin}/v1/health`)).status === 200, 15_000, 'gateway health 200');
    await until(async () => (await fetch(`${worker.opsUrl}/readyz`)).status === 200, 15_000, 'worker ready');

    const old = await awaitShot(gateway.origin, before, 5_000);
    expect([old.http_status, old.status]).toEqual([200, 'completed']);

    const ids = await Promise.all([1, 2, 3].map((n) => createShot(gateway.origin, site.pageUrl(`after-${n}`))));
    const results = await Promise.all(ids.map((id) => awaitShot(gateway.origin, id, 30_000)));
    expect(results.map((r) => [r.status, r.code])).toEqual(ids.map(() => ['completed', undefined]));
  });

  it('still stops gateway and worker cleanly when Redis is gone again', async () => {
    await redis.stop('SIGKILL');
    // SIGTERM: the gateway closes its queues and event streams even with no Redis to say goodbye to.
    // Exit code 0 says it did so before serve.js's own deadline (SHUTDOWN_TIMEOUT + 5 s) exits 1.
    const code = await gateway.proc.stop('SIGTERM');
    expect(code).toBe(0);
    // The worker waits at most SHUTDOWN_TIMEOUT (5 s here) for jobs, then leaves without Redis,
    // before serve.js's own deadline would have to exit with an error.
    expect(await worker.proc.stop('SIGTERM')).toBe(0);
  });

  it('starts a gateway while Redis is down: it listens, answers 503, and stops on SIGTERM', async () => {
    const port = await freePort();
    const late = startService({ ...env, ROLE: 'gateway', HTTP_ADDR: `127.0.0.1:${port}` });
    try {
      let health: Response | undefined;
      await until(
        async () => (health = await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => undefined)) !== undefined,
        20_000,
        'the gateway to listen',
      );
      expect(health?.status).toBe(503);
      const created = await timed(`http://127.0.0.1:${port}/v1/screenshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.pageUrl('late') }),
      });
      expect([created.status, created.body.code]).toEqual([503, 'UNAVAILABLE']);
      expect(created.ms).toBeLessThan(FAST_MS);
      // Its queues never connected: closing them must not wait for a Redis that is not coming
      // (exit code 0: before serve.js's shutdown deadline).
      expect(await late.stop('SIGTERM')).toBe(0);
    } finally {
      await late.stop('SIGKILL');
    }
  });
});
