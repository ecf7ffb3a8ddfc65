import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@sitelens/config';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { sampleValue, testRedisUrl, uniquePrefix } from '@sitelens/testkit';
import { startGateway, type RunningGateway } from '../src/main';
import { startTestGateway, getJson, type TestGateway } from '@sitelens/testkit/test-gateway';

describe('GET /metrics (local mode: on the API port)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves Prometheus text without a key, with HTTP, job, browser and model metrics', async () => {
    await getJson(`${gw.origin}/v1/health`);
    const response = await fetch(`${gw.origin}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const health = { method: 'GET', route: '/v1/health', status: '200', service: 'gateway-test' };
    expect(sampleValue(text, 'sitelens_http_requests_total', health)).toBe(1);
    expect(sampleValue(text, 'sitelens_http_request_duration_seconds_count', health)).toBe(1);
    for (const name of [
      'sitelens_jobs_total',
      'sitelens_job_duration_seconds',
      'sitelens_browser_pages_in_use',
      'sitelens_model_calls_total',
      'sitelens_model_tokens_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('reports queue depth read from Redis at scrape time', async () => {
    await gw.deps.queues.screenshot.add('screenshot', {
      request: { url: 'https://example.com' },
      timeoutSeconds: 30,
      acceptedAt: Date.now(),
    } as never);
    await gw.deps.queues.screenshot.add(
      'screenshot',
      { request: { url: 'https://example.org' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never,
      { delay: 60_000 },
    );
    const text = await (await fetch(`${gw.origin}/metrics`)).text();
    const depth = (state: string) => sampleValue(text, 'sitelens_queue_jobs', { queue: 'screenshot', state });
    expect([depth('waiting'), depth('delayed'), depth('active'), depth('failed')]).toEqual([1, 1, 0, 0]);
  });

  it('counts its own scrapes under the /metrics route', async () => {
    const text = await (await fetch(`${gw.origin}/metrics`)).text();
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });
});

describe('/metrics in hosted mode: on the ops port (OPS_HTTP_ADDR), not on the API port', () => {
  let gateway: RunningGateway;
  let origin: string;
  const KEY = 'sk_test_ops_metrics';
  beforeAll(async () => {
    const config = loadConfig({
      MODE: 'hosted',
      ROLE: 'gateway',
      API_KEYS: `${KEY}:free`,
      HTTP_ADDR: '127.0.0.1:0',
      OPS_HTTP_ADDR: '127.0.0.1:0',
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniquePrefix('gw-ops'),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitelens-gw-ops-')),
    });
    gateway = await startGateway(
      config,
      createLogger({ level: 'silent', service: 'gateway-test' }),
      createMetrics({ service: 'gateway-test', collectDefaults: false }),
    );
    const address = gateway.server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    await new Promise<void>((resolve) =>
      gateway.deps.redis.status === 'ready' ? resolve() : gateway.deps.redis.once('ready', () => resolve()),
    );
  });
  afterAll(async () => {
    await gateway.deps.queues.screenshot.obliterate({ force: true }).catch(() => undefined);
    await gateway.close();
  });

  it('answers 404 for /metrics on the API port, with or without a key', async () => {
    const anonymous = await getJson(`${origin}/metrics`);
    expect(anonymous.status).toBe(404);
    expect(anonymous.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect(anonymous.text).not.toContain('sitelens_http_requests_total');
    expect((await getJson(`${origin}/metrics`, { authorization: `Bearer ${KEY}` })).status).toBe(404);
  });

  it('serves Prometheus text, queue depth included, and probes on the ops port', async () => {
    expect(gateway.ops).toBeDefined();
    await getJson(`${origin}/v1/health`);
    await gateway.deps.queues.screenshot.add('screenshot', {
      request: { url: 'https://example.com' },
      timeoutSeconds: 30,
      acceptedAt: Date.now(),
    } as never);
    const response = await fetch(`${gateway.ops!.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await response.text();
    expect(sampleValue(text, 'sitelens_http_requests_total', { method: 'GET', route: '/v1/health', status: '200' })).toBe(1);
    expect(sampleValue(text, 'sitelens_queue_jobs', { queue: 'screenshot', state: 'waiting' })).toBe(1);
    expect((await fetch(`${gateway.ops!.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${gateway.ops!.url}/healthz`)).status).toBe(200);
    // The ops port serves nothing of the API.
    expect((await fetch(`${gateway.ops!.url}/v1/health`)).status).toBe(404);
  });
});
