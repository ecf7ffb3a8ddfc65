import { sampleValue } from '@sitelens/testkit';
import { createLogger } from '../src/logger';
import { createMetrics } from '../src/metrics';
import { startOpsServer, type OpsServer } from '../src/ops-server';

describe('worker ops server', () => {
  const logger = createLogger({ level: 'silent', service: 'ops-test' });
  const metrics = createMetrics({ service: 'ops-test', collectDefaults: false });
  let redisReady = true;
  let ops: OpsServer;

  beforeAll(async () => {
    ops = await startOpsServer({
      address: { host: '127.0.0.1', port: 0 },
      registry: metrics.registry,
      logger,
      readiness: {
        redis: () => redisReady,
        worker: async () => true,
        hangs: () => new Promise<boolean>(() => undefined),
      },
      checkTimeoutMs: 200,
    });
  });
  afterAll(async () => {
    await ops.close();
  });

  it('answers /healthz while the process runs', async () => {
    const response = await fetch(`${ops.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('serves /metrics from the registry it was given', async () => {
    metrics.jobs.inc({ queue: 'parse', name: 'scrape', outcome: 'completed' });
    const response = await fetch(`${ops.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(
      sampleValue(await response.text(), 'sitelens_jobs_total', {
        queue: 'parse',
        name: 'scrape',
        outcome: 'completed',
        service: 'ops-test',
      }),
    ).toBe(1);
  });

  it('reports not ready, naming the checks that fail or hang', async () => {
    redisReady = false;
    // The hanging check never settles: an answer at all, naming it failing, shows it was cut off.
    const response = await fetch(`${ops.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', checks: { redis: 'failing', worker: 'ok', hangs: 'failing' } });
  });

  it('answers HEAD, refuses other methods and unknown paths', async () => {
    expect((await fetch(`${ops.url}/healthz`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${ops.url}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${ops.url}/`)).status).toBe(404);
    expect((await fetch(`${ops.url}/metrics/../admin`)).status).toBe(404);
  });
});

describe('ops server readiness', () => {
  it('is ready when every check passes', async () => {
    const ops = await startOpsServer({
      address: { host: '', port: 0 },
      registry: createMetrics({ service: 'ops-test', collectDefaults: false }).registry,
      logger: createLogger({ level: 'silent', service: 'ops-test' }),
      readiness: { redis: () => true },
    });
    try {
      expect(ops.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${ops.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', checks: { redis: 'ok' } });
    } finally {
      await ops.close();
    }
  });

  it('fails to start when the port is taken', async () => {
    const options = {
      address: { host: '127.0.0.1', port: 0 },
      registry: createMetrics({ service: 'ops-test', collectDefaults: false }).registry,
      logger: createLogger({ level: 'silent', service: 'ops-test' }),
    };
    const first = await startOpsServer(options);
    try {
      const port = Number(new URL(first.url).port);
      await expect(startOpsServer({ ...options, address: { host: '127.0.0.1', port } })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
