import { sampleValue } from '../../../test/support/prometheus';
import { startTestGateway, getJson, postJson, type TestGateway } from './support/test-gateway';

const TOKEN = 'admin-test-token-0123456789';

describe('/admin/queues with ADMIN_TOKEN set', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ ADMIN_TOKEN: TOKEN, MODE: 'hosted', API_KEYS: 'sk_test_admin:free' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers 401 without a token, with a JSON error and a challenge', async () => {
    const response = await getJson(`${gw.origin}/admin/queues`);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ success: false, error: 'Invalid or missing admin token', code: 'UNAUTHORIZED' });
    expect(response.headers.get('www-authenticate')).toMatch(/Bearer realm="sitelens-admin"/);
  });

  it.each([
    ['a wrong bearer token', `Bearer ${TOKEN}x`],
    ['an API key', 'Bearer sk_test_admin'],
    ['an empty bearer', 'Bearer '],
    ['another scheme', `Token ${TOKEN}`],
  ])('answers 401 for %s', async (_name, authorization) => {
    expect((await getJson(`${gw.origin}/admin/queues`, { authorization })).status).toBe(401);
  });

  it('guards the dashboard API too', async () => {
    expect((await getJson(`${gw.origin}/admin/queues/api/queues`)).status).toBe(401);
  });

  it('answers a malformed JSON body to the dashboard API with the service\'s JSON error', async () => {
    const response = await postJson(`${gw.origin}/admin/queues/api/queues`, '}', { authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ success: false, error: 'Malformed JSON in request body', code: 'INVALID_REQUEST' });
  });

  it('opens the dashboard with the bearer token', async () => {
    const response = await fetch(`${gw.origin}/admin/queues`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('Sitelens queues');
  });

  it('counts dashboard requests under one route label', async () => {
    const text = await (await fetch(`${gw.origin}/metrics`)).text();
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/admin/queues', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/admin/queues', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="[^"]*,/);
  });

  it('lists the queues, and takes Basic credentials with the token as password (browsers)', async () => {
    await gw.deps.queues.screenshot.add('screenshot', { request: { url: 'https://example.com' }, timeoutSeconds: 30, acceptedAt: Date.now() } as never);
    const basic = `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`;
    const response = await getJson(`${gw.origin}/admin/queues/api/queues?activeQueue=screenshot&status=waiting&page=1`, { authorization: basic });
    expect(response.status).toBe(200);
    const queues = (response.json as { queues: Array<{ name: string; counts: Record<string, number> }> }).queues;
    expect(queues.map((q) => q.name)).toEqual(['screenshot', 'parse']);
    expect(queues[0].counts.waiting).toBe(1);
  });
});

describe('/admin/queues without ADMIN_TOKEN', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('does not exist', async () => {
    const response = await getJson(`${gw.origin}/admin/queues`, { authorization: 'Bearer anything' });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
