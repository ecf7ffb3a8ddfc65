/**
 * The watch routes at the gateway alone (no worker): request validation, and in hosted mode
 * ownership (a watch belongs to the key that made it; other keys get 404) and the plan's caps on
 * schedule pace and watches per key.
 */
import { PLANS } from '@sitelens/contracts';
import { deletePrefix } from '@sitelens/testkit/hosted';
import { getJson, postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

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

  it('shows a watch only to the key that made it; other keys get 404 on every route', async () => {
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
    expect(((await getJson(`${gw.origin}/v1/watch/${id}`, as(KEYS.a))).json.watch as { status: string }).status).toBe('active');
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

  it("refuses schedules faster than the plan's and private addresses", async () => {
    const fast = await postJson(`${gw.origin}/v1/watch`, { ...base, frequency: 'custom', custom_frequency: '*/10 * * * * *' }, as(KEYS.a));
    expect(fast.status).toBe(403);
    expect(fast.json).toMatchObject({ code: 'PLAN_LIMIT' });
    expect(fast.json.error).toContain("custom_frequency '*/10 * * * * *'");
    const five = await postJson(`${gw.origin}/v1/watch`, { ...base, frequency: 'custom', custom_frequency: '*/5 * * * *' }, as(KEYS.a));
    expect(five.status).toBe(201);
    const internal = await postJson(`${gw.origin}/v1/watch`, { ...base, url: 'http://169.254.169.254/latest/meta-data/' }, as(KEYS.a));
    expect(internal.status).toBe(403);
    expect(internal.json.code).toBe('URL_BLOCKED');
    const hook = await postJson(`${gw.origin}/v1/watch`, { ...base, webhook_url: 'http://127.0.0.1:9/hook' }, as(KEYS.a));
    expect(hook.status).toBe(403);
  });
});

describe('watches within the plan (hosted mode)', () => {
  const KEYS = { free: 'plan-watch-free-0001', racer: 'plan-watch-free-0002', pro: 'plan-watch-pro-0001', ent: 'plan-watch-ent-0001' };
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const custom = (cron: string) => ({ ...base, frequency: 'custom', custom_frequency: cron });
  let gw: TestGateway;

  beforeAll(async () => {
    // Request counts out of the way; the watch caps are the real plans'.
    const roomy = { requestsPerMinute: 10_000, requestsPerDay: 100_000 };
    const plans = { free: { ...PLANS.free, ...roomy }, pro: { ...PLANS.pro, ...roomy }, enterprise: { ...PLANS.enterprise, ...roomy } };
    gw = await startTestGateway(
      { MODE: 'hosted', API_KEYS: `${KEYS.free}:free,${KEYS.racer}:free,${KEYS.pro}:pro,${KEYS.ent}:enterprise` },
      undefined,
      { plans },
    );
  });
  afterAll(async () => {
    await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
    await gw.close();
  });

  it.each([
    ['*/30 * * * *', 'free', 'runs every 30 minutes; the free plan allows watch schedules at most every hour'],
    ['*/4 * * * *', 'pro', 'runs every 4 minutes; the pro plan allows watch schedules at most every 5 minutes'],
    // Every day 23:59 then 00:00: a minute apart across midnight, which the next few runs need not show.
    ['0,59 0,23 1,31 * *', 'pro', 'runs every minute; the pro plan allows watch schedules at most every 5 minutes'],
    ['*/30 * * * * *', 'ent', 'runs every 30 seconds; the enterprise plan allows watch schedules at most every minute'],
  ] as const)('refuses the schedule %s to a %s key with 403 PLAN_LIMIT naming the cap', async (cron, key, message) => {
    const response = await postJson(`${gw.origin}/v1/watch`, custom(cron), as(KEYS[key]));
    expect(response.status).toBe(403);
    expect(response.json).toEqual({ success: false, code: 'PLAN_LIMIT', error: `custom_frequency '${cron}' ${message}` });
  });

  it.each([
    ['hourly', 'free'],
    ['0 */1 * * *', 'free'],
    // Hours 0, 1, 2, 4, 6...: at most hourly.
    ['0 0-23/2,1 * * *', 'free'],
    ['*/5 * * * *', 'pro'],
    ['* * * * *', 'ent'],
  ] as const)('lets the schedule %s through for a %s key', async (schedule, key) => {
    const body = schedule === 'hourly' ? { ...base, frequency: 'hourly' } : custom(schedule);
    const response = await postJson(`${gw.origin}/v1/watch`, body, as(KEYS[key]));
    expect(response.status).toBe(201);
    expect((await call('DELETE', `${gw.origin}/v1/watch/${response.json.watch_id}`, as(KEYS[key]))).status).toBe(200);
  });

  it('caps a free key at 5 watches, naming the cap; a delete makes room again', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.free));
      expect(created.status).toBe(201);
      ids.push(created.json.watch_id as string);
    }
    const sixth = await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.free));
    expect(sixth.status).toBe(403);
    expect(sixth.json).toEqual({
      success: false,
      code: 'PLAN_LIMIT',
      error: 'The free plan allows at most 5 watches; delete one to create another',
    });
    // Another key's count is its own.
    expect((await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.pro))).status).toBe(201);

    expect((await call('DELETE', `${gw.origin}/v1/watch/${ids[0]}`, as(KEYS.free))).status).toBe(200);
    expect((await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.free))).status).toBe(201);
    expect((await postJson(`${gw.origin}/v1/watch`, base, as(KEYS.free))).status).toBe(403);
    expect((await getJson(`${gw.origin}/v1/watch`, as(KEYS.free))).json.total).toBe(5);
  });

  it('keeps the cap exact under 20 concurrent creates', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(`${gw.origin}/v1/watch`, base, as(KEYS.racer))));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(15).fill(403)]);
    expect((await getJson(`${gw.origin}/v1/watch`, as(KEYS.racer))).json.total).toBe(5);
    // Refused creates leave nothing behind: every watch hash in Redis is an indexed watch.
    const hashes = (await gw.deps.redis.keys(`${gw.config.redis.prefix}:watch:*`)).filter((key) => /:watch:[0-9a-f-]{36}$/.test(key));
    expect(hashes).toHaveLength(await gw.deps.redis.zcard(`${gw.config.redis.prefix}:watches`));
  });
});
