import type { JobPayload } from '@sitelens/contracts';
import { sampleValue } from '@sitelens/testkit';
import { startTestGateway, getJson, postJson, type TestGateway } from '@sitelens/testkit/test-gateway';

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

  it("answers a malformed JSON body to the dashboard API with the service's JSON error", async () => {
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
    // Hosted mode: /metrics is on the ops port, so read the registry it serves.
    const text = await gw.deps.metrics.registry.metrics();
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/admin/queues', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(text, 'sitelens_http_requests_total', { route: '/admin/queues', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/route="[^"]*,/);
  });

  it('lists the queues, and takes Basic credentials with the token as password (browsers)', async () => {
    await gw.deps.queues.screenshot.add('screenshot', {
      request: { url: 'https://example.com' },
      timeoutSeconds: 30,
      acceptedAt: Date.now(),
    } as never);
    const basic = `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`;
    const response = await getJson(`${gw.origin}/admin/queues/api/queues?activeQueue=screenshot&status=waiting&page=1`, {
      authorization: basic,
    });
    expect(response.status).toBe(200);
    const queues = (response.json as { queues: Array<{ name: string; counts: Record<string, number> }> }).queues;
    expect(queues.map((q) => q.name)).toEqual(['screenshot', 'parse']);
    expect(queues[0].counts.waiting).toBe(1);
  });
});

describe('/admin/queues is read-only and shows no secrets of job data', () => {
  let gw: TestGateway;
  const admin = { authorization: `Bearer ${TOKEN}` };
  const RECEIVER_TOKEN = 'receiver-bearer-token-do-not-show';
  beforeAll(async () => {
    gw = await startTestGateway({ ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await gw.close();
  });

  async function addCrawlJob(): Promise<string> {
    const job = await gw.deps.queues.parse.add('crawl', {
      request: {
        url: 'https://example.com/',
        webhook_url: 'https://hooks.example.com/crawl',
        webhook_headers: { Authorization: `Bearer ${RECEIVER_TOKEN}`, 'X-Receiver-Token': RECEIVER_TOKEN },
      },
      timeoutSeconds: 30,
      acceptedAt: Date.now(),
      owner: 'abcdef0123456789',
    } as never);
    return job.id!;
  }

  it('shows webhook_headers (and other secret fields) redacted, in the job list and the job view', async () => {
    const jobId = await addCrawlJob();
    const listed = await getJson(`${gw.origin}/admin/queues/api/queues?activeQueue=parse&status=waiting&page=1`, admin);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(RECEIVER_TOKEN);
    const parse = (listed.json as { queues: Array<{ name: string; jobs: Array<{ id: string; data: Record<string, any> }> }> }).queues.find(
      (q) => q.name === 'parse',
    )!;
    const shown = parse.jobs.find((job) => job.id === jobId)!;
    expect(shown.data.request).toEqual({
      url: 'https://example.com/',
      webhook_url: 'https://hooks.example.com/crawl',
      webhook_headers: '[redacted]',
    });
    expect(shown.data.owner).toBe('abcdef0123456789');

    const single = await getJson(`${gw.origin}/admin/queues/api/queues/parse/${jobId}`, admin);
    expect(single.status).toBe(200);
    expect(single.text).not.toContain(RECEIVER_TOKEN);
    expect((single.json as { job: { data: Record<string, any> } }).job.data.request.webhook_headers).toBe('[redacted]');
    // The job itself keeps them: the worker still sends them.
    expect(((await gw.deps.queues.parse.getJob(jobId))!.data as JobPayload<'crawl'>).request.webhook_headers).toMatchObject({
      'X-Receiver-Token': RECEIVER_TOKEN,
    });
  });

  it('says it is read-only, and refuses every action (retry, clean, pause, add, remove)', async () => {
    const jobId = await addCrawlJob();
    const queues = await getJson(`${gw.origin}/admin/queues/api/queues?activeQueue=parse&status=waiting&page=1`, admin);
    for (const queue of (queues.json as { queues: Array<{ readOnlyMode: boolean }> }).queues) expect(queue.readOnlyMode).toBe(true);
    const actions: Array<[string, string, unknown?]> = [
      ['PUT', '/api/queues/parse/pause'],
      ['PUT', '/api/queues/pause'],
      ['PUT', '/api/queues/parse/clean/waiting'],
      ['PUT', '/api/queues/parse/retry/failed'],
      ['PUT', '/api/queues/parse/promote'],
      ['PUT', `/api/queues/parse/${jobId}/promote`],
      ['PUT', `/api/queues/parse/${jobId}/clean`],
      ['PUT', `/api/queues/parse/${jobId}/update-data`, { data: {} }],
      ['POST', '/api/queues/parse/add', { name: 'crawl', data: {} }],
      ['DELETE', '/api/queues/parse/obliterate'],
    ];
    for (const [method, route, body] of actions) {
      const response = await fetch(`${gw.origin}/admin/queues${route}`, {
        method,
        headers: { ...admin, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      expect([method, route, response.status, json.code]).toEqual([method, route, 403, 'FORBIDDEN']);
    }
    expect(await gw.deps.queues.parse.isPaused()).toBe(false);
    expect(await gw.deps.queues.parse.getJob(jobId)).toBeDefined();
    expect(await gw.deps.queues.parse.getWaitingCount()).toBe(2);
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
