/**
 * The watch routes at the gateway alone (no worker): request validation, and in hosted mode
 * ownership (a watch belongs to the key that made it; other keys get 404) and schedule pace.
 */
import { deletePrefix } from './support/hosted';
import { getJson, postJson, startTestGateway, type TestGateway } from './support/test-gateway';

async function call(method: string, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const base = { url: 'https://example.com/pricing', frequency: 'daily' };

describe('watch request validation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
    await gw.close();
  });

  it.each([
    ['no url', { frequency: 'daily' }, 'url'],
    ['a non-http url', { ...base, url: 'ftp://example.com/' }, 'url'],
    ['no frequency', { url: base.url }, 'frequency'],
    ['an unknown frequency', { ...base, frequency: 'sometimes' }, 'frequency'],
    ['custom without a cron', { ...base, frequency: 'custom' }, 'custom_frequency'],
    ['custom with a bad cron', { ...base, frequency: 'custom', custom_frequency: '61 * * * *' }, 'custom_frequency'],
    ['custom with three fields', { ...base, frequency: 'custom', custom_frequency: '* * *' }, 'custom_frequency'],
    ['a bad selector', { ...base, selector: 'div[[' }, 'selector'],
    ['a bad e-mail', { ...base, notify_email: 'not-an-address' }, 'notify_email'],
    ['quality out of range', { ...base, quality: 0 }, 'quality'],
    ['a bad notification_preference', { ...base, notification_preference: 'sometimes' }, 'notification_preference'],
    ['a bad webhook_url', { ...base, webhook_url: 'mailto:x@example.com' }, 'webhook_url'],
    ['include_image not a boolean', { ...base, include_image: 'yes' }, 'include_image'],
  ])('answers %s with 400 INVALID_REQUEST naming the field', async (_name, body, field) => {
    const response = await postJson(`${gw.origin}/v1/watch`, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
    expect(response.json.error).toContain(`'${field}'`);
  });

  it('accepts the Supacrawler client’s full create body (nulls as unset) and lists the watch', async () => {
    const created = await postJson(`${gw.origin}/v1/watch`, {
      ...base,
      notify_email: 'alerts@example.com',
      notification_preference: 'changes_only',
      selector: '#pricing-table',
      include_html: true,
      include_image: true,
      full_page: true,
      quality: 85,
      custom_frequency: null,
      webhook_url: null,
    });
    expect(created.status).toBe(201);
    expect(created.json.watch_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.watch).not.toHaveProperty('custom_frequency');
    const listed = await getJson(`${gw.origin}/v1/watch`);
    expect(listed.json).toMatchObject({ success: true, total: 1 });
    expect(listed.json.watches).toEqual([
      expect.objectContaining({ id: created.json.watch_id, selector: '#pricing-table', quality: 85, status: 'active', last_check: null }),
    ]);
    const page = await getJson(`${gw.origin}/v1/watch?limit=0`);
    expect(page.status).toBe(400);
  });

  it('documents every watch route in the OpenAPI document', async () => {
    const doc = await getJson(`${gw.origin}/openapi.json`);
    const paths = doc.json.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/v1/watch']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/watch/{id}']!).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/v1/watch/{id}/pause']!)).toEqual(['patch']);
    expect(Object.keys(paths['/v1/watch/{id}/resume']!)).toEqual(['patch']);
    expect(Object.keys(paths['/v1/watch/{id}/check']!)).toEqual(['post']);
  });
});

describe('watches in hosted mode', () => {
  const KEYS = { a: 'hosted-watch-key-a-0001', b: 'hosted-watch-key-b-0001' };
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  let gw: TestGateway;
  let id: string;

  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: `${KEYS.a}:pro,${KEYS.b}:pro` });
    const created = await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.a));
    expect(created.status).toBe(201);
    id = created.json.watch_id as string;
  });
  afterAll(async () => {
    await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
    await gw.close();
  });

  it('needs a key', async () => {
    expect((await postJson(`${gw.origin}/v1/watch`, base)).status).toBe(401);
    expect((await getJson(`${gw.origin}/v1/watch`)).status).toBe(401);
  });

  it("shows a watch only to the key that made it; other keys get 404 on every route", async () => {
    const mine = await getJson(`${gw.origin}/v1/watch/${id}`, as(KEYS.a));
    expect(mine.status).toBe(200);
    expect(mine.json.watch).toMatchObject({ id, status: 'active' });
    expect(mine.json.watch).not.toHaveProperty('owner');
    expect(mine.json.watch).not.toHaveProperty('plan');

    expect((await getJson(`${gw.origin}/v1/watch`, as(KEYS.a))).json).toMatchObject({ total: 1, watches: [{ id }] });
    expect((await getJson(`${gw.origin}/v1/watch`, as(KEYS.b))).json).toEqual({ success: true, total: 0, watches: [] });

    for (const [method, path] of [
      ['GET', `/v1/watch/${id}`],
      ['PATCH', `/v1/watch/${id}/pause`],
      ['PATCH', `/v1/watch/${id}/resume`],
      ['POST', `/v1/watch/${id}/check?wait=0`],
      ['DELETE', `/v1/watch/${id}`],
    ] as const) {
      const response = await call(method, `${gw.origin}${path}`, as(KEYS.b));
      expect([method, path, response.status, response.json.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    // Still there for its owner, untouched.
    expect((await getJson(`${gw.origin}/v1/watch/${id}`, as(KEYS.a))).json.watch.status).toBe('active');
  });

  it('lets the owner pause, resume, queue a check and delete', async () => {
    const paused = await call('PATCH', `${gw.origin}/api/v1/watch/${id}/pause`, as(KEYS.a));
    expect(paused.json).toMatchObject({ success: true, watch: { status: 'paused' } });
    const resumed = await call('PATCH', `${gw.origin}/api/v1/watch/${id}/resume`, as(KEYS.a));
    expect(resumed.json).toMatchObject({ success: true, watch: { status: 'active' } });
    // No worker runs here: the check is queued and answered at once with wait=0.
    const queued = await call('POST', `${gw.origin}/v1/watch/${id}/check?wait=0`, as(KEYS.a));
    expect(queued.status).toBe(202);
    expect(queued.json).toMatchObject({ success: true, message: 'Check queued', job_id: expect.stringMatching(/^watch-manual-/) });
    // The check runs within the key's fair share: its job names the key and the key's plan.
    const check = await gw.deps.queues.parse.getJob(queued.json.job_id as string);
    expect(check?.data).toMatchObject({ owner: expect.any(String), plan: 'pro', watchId: id, trigger: 'manual' });
    const deleted = await call('DELETE', `${gw.origin}/v1/watch/${id}`, as(KEYS.a));
    expect(deleted.json).toEqual({ success: true, message: 'Watch deleted' });
    expect((await getJson(`${gw.origin}/v1/watch/${id}`, as(KEYS.a))).status).toBe(404);
  });

  it('refuses schedules faster than once a minute and private addresses', async () => {
    const fast = await postJson(`${gw.origin}/v1/watch`, { ...base, frequency: 'custom', custom_frequency: '*/10 * * * * *' }, as(KEYS.a));
    expect(fast.status).toBe(400);
    expect(fast.json.error).toContain("'custom_frequency'");
    const minute = await postJson(`${gw.origin}/v1/watch`, { ...base, frequency: 'custom', custom_frequency: '* * * * *' }, as(KEYS.a));
    expect(minute.status).toBe(201);
    const internal = await postJson(`${gw.origin}/v1/watch`, { ...base, url: 'http://169.254.169.254/latest/meta-data/' }, as(KEYS.a));
    expect(internal.status).toBe(403);
    expect(internal.json.code).toBe('URL_BLOCKED');
    const hook = await postJson(`${gw.origin}/v1/watch`, { ...base, webhook_url: 'http://127.0.0.1:9/hook' }, as(KEYS.a));
    expect(hook.status).toBe(403);
  });
});
