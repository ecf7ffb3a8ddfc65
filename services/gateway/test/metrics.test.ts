import { sampleValue } from '../../../test/support/prometheus';
import { startTestGateway, getJson, type TestGateway } from './support/test-gateway';

describe('GET /metrics', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: 'sk_test_metrics:free' });
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
    for (const name of ['sitelens_jobs_total', 'sitelens_job_duration_seconds', 'sitelens_browser_pages_in_use', 'sitelens_model_calls_total', 'sitelens_model_tokens_total']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('reports queue depth read from Redis at scrape time', async () => {
    await gw.deps.queues.screenshot.add('screenshot', { request: { url: 'https://example.com' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never);
    await gw.deps.queues.screenshot.add('screenshot', { request: { url: 'https://example.org' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never, { delay: 60_000 });
    const text = await (await fetch(`${gw.origin}/metrics`)).text();
    const depth = (state: string) => sampleValue(text, 'sitelens_queue_jobs', { queue: 'screenshot', state });
    expect([depth('waiting'), depth('delayed'), depth('active'), depth('failed')]).toEqual([1, 1, 0, 0]);
  });

  it('counts its own scrapes under the /metrics route', async () => {
    const text = await (await fetch(`${gw.origin}/metrics`)).text();
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });
});
