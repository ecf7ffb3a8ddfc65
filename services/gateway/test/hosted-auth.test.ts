import { PLANS } from '@sitelens/contracts';
import { hashApiKey, keyIdOf } from '../src/auth/api-keys';
import { ApiKeyStore } from '../src/auth/key-store';
import { deletePrefix, eventually, probe, rateHeaders } from '@sitelens/testkit/hosted';
import { getJson, postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import { uniquePrefix } from '@sitelens/testkit';

const UNAUTHORIZED = { success: false, error: 'Invalid or missing API key', code: 'UNAUTHORIZED' };

async function stop(gw: TestGateway) {
  await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
  await gw.close();
}

function counter(gw: TestGateway, window: 'minute' | 'day', key: string) {
  return gw.deps.redis.get(`${gw.config.redis.prefix}:ratelimit:${window}:${keyIdOf(hashApiKey(key))}`);
}

describe('hosted mode: keys and per-minute limits', () => {
  const KEYS = {
    plain: 'static-plain-key-0001',
    countdown: 'static-countdown-0001',
    burst: 'static-burst-key-0001',
  };
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: `${KEYS.plain}:pro,${KEYS.countdown}:free,${KEYS.burst}:pro` });
  });
  afterAll(() => stop(gw));

  it.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: `Basic ${KEYS.plain}` }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['an unknown key', { authorization: 'Bearer sk_live_0000000000000000000000000000000000' }],
    ['a key with a trailing character', { authorization: `Bearer ${KEYS.plain}x` }],
  ])('answers %s with 401 UNAUTHORIZED and no rate-limit headers', async (_name, headers) => {
    const response = await getJson(`${gw.origin}/v1/screenshots?job_id=x`, headers);
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('checks the key before validating the body', async () => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, { url: 42 });
    expect(response.status).toBe(401);
    expect(response.json).toEqual(UNAUTHORIZED);
  });

  it('lets a known key through to the route, with rate-limit headers', async () => {
    const response = await probe(gw.origin, KEYS.plain);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'NOT_FOUND' });
    expect(rateHeaders(response.headers)).toMatchObject({ limit: '100', remaining: '99' });
  });

  it('keeps health, the OpenAPI document and unknown paths free of keys and limits', async () => {
    for (const path of ['/v1/health', '/api/v1/health', '/openapi.json', '/docs']) {
      const response = await getJson(`${gw.origin}${path}`);
      expect([200, 503]).toContain(response.status);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect((await getJson(`${gw.origin}/v1/no-such-route`)).status).toBe(404);
    // /metrics lives on the ops port in hosted mode (metrics.test.ts).
    expect((await getJson(`${gw.origin}/metrics`)).status).toBe(404);
    const health = await getJson(`${gw.origin}/v1/health`);
    expect(health.json).toMatchObject({ mode: 'hosted' });
  });

  it('gives N passes then one 429 on an N/min key, headers counting down', async () => {
    const before = Math.floor(Date.now() / 1000);
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await probe(gw.origin, KEYS.countdown);
      expect(response.status).toBe(404);
      const headers = rateHeaders(response.headers);
      expect(headers.limit).toBe('10');
      const reset = Number(headers.reset);
      expect(reset).toBeGreaterThanOrEqual(before + 59);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      remaining.push(headers.remaining ?? '');
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);

    const refused = await probe(gw.origin, KEYS.countdown);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      error: expect.stringMatching(/free plan allows 10 requests per minute; retry in \d+ s/),
    });
    const headers = rateHeaders(refused.headers);
    expect(headers).toMatchObject({ limit: '10', remaining: '0' });
    expect(Number(headers.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(headers.retryAfter)).toBeLessThanOrEqual(60);
    // The refused request spent nothing from the day window.
    expect(await counter(gw, 'day', KEYS.countdown)).toBe('10');
  });

  it('lets exactly 100 of 130 concurrent requests through on a 100/min key', async () => {
    const responses = await Promise.all(Array.from({ length: 130 }, () => probe(gw.origin, KEYS.burst)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const remaining = responses.filter((r) => r.status === 404).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(100);
    expect(Math.min(...remaining)).toBe(0);
    expect(await counter(gw, 'day', KEYS.burst)).toBe('100');
  });
});

describe('hosted mode: several gateways', () => {
  it('share one limit when they share one Redis and prefix', async () => {
    const env = { MODE: 'hosted', API_KEYS: 'shared-static-key-01:free', QUEUE_PREFIX: uniquePrefix('gw-shared') };
    const a = await startTestGateway(env);
    const b = await startTestGateway(env);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await probe((i % 2 === 0 ? a : b).origin, 'shared-static-key-01');
        statuses.push(response.status);
      }
      expect(statuses.filter((s) => s === 404)).toHaveLength(10);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await stop(a);
      await b.close();
    }
  });
});

describe('hosted mode: daily limit', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const plans = { ...PLANS, free: { ...PLANS.free, requestsPerDay: 3 } };
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: 'daily-static-key-001:free' }, undefined, { plans });
  });
  afterAll(() => stop(gw));

  it('reports the day window once it is closer to 0, and refuses past it', async () => {
    const passes = [];
    for (let i = 0; i < 3; i++) passes.push(await probe(gw.origin, 'daily-static-key-001'));
    expect(passes.map((r) => r.status)).toEqual([404, 404, 404]);
    // Minute has 9, 8, 7 left, the day 2, 1, 0: the day binds.
    expect(passes.map((r) => rateHeaders(r.headers).limit)).toEqual(['3', '3', '3']);
    expect(passes.map((r) => rateHeaders(r.headers).remaining)).toEqual(['2', '1', '0']);
    const dayReset = Number(rateHeaders(passes[0]!.headers).reset);
    expect(dayReset).toBeGreaterThan(Date.now() / 1000 + 86_000);

    const refused = await probe(gw.origin, 'daily-static-key-001');
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatch(/allows 3 requests per day/);
    expect(rateHeaders(refused.headers)).toMatchObject({ limit: '3', remaining: '0' });
    expect(Number(rateHeaders(refused.headers).retryAfter)).toBeGreaterThan(86_000);
    // Refused by the day, the request's minute point was given back.
    expect(await counter(gw, 'minute', 'daily-static-key-001')).toBe('3');
  });
});

describe('hosted mode: issued keys', () => {
  let gw: TestGateway;
  let store: ApiKeyStore;
  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted' });
    store = new ApiKeyStore(gw.deps.redis, gw.config.redis.prefix);
  });
  afterAll(() => stop(gw));

  it('accepts a key as soon as it is issued, with its plan', async () => {
    const { key } = await store.create('enterprise', 'acme');
    const response = await probe(gw.origin, key);
    expect(response.status).toBe(404);
    expect(rateHeaders(response.headers)).toMatchObject({ limit: '1000', remaining: '999' });
  });

  it('refuses a revoked key within a few seconds, without a restart', async () => {
    const { key, record } = await store.create('pro', 'to-revoke');
    expect((await probe(gw.origin, key)).status).toBe(404);
    await store.revoke(record.hash);
    // Polled with a deadline that only bounds the wait; the key cache's lifetime is what ends it.
    await eventually(async () => (await probe(gw.origin, key)).status === 401, 15_000);
    expect((await probe(gw.origin, key)).json).toEqual(UNAUTHORIZED);
  });

  it('stores only the hash of a key', async () => {
    const { key, record } = await store.create('free', 'hash-only');
    const stored = await gw.deps.redis.hgetall(`${gw.config.redis.prefix}:apikeys:${hashApiKey(key)}`);
    expect(stored).toMatchObject({ plan: 'free', name: 'hash-only', prefix: record.displayPrefix, revoked: '0' });
    const keys = await gw.deps.redis.keys(`${gw.config.redis.prefix}:*`);
    for (const name of keys) {
      expect(name).not.toContain(key);
      const type = await gw.deps.redis.type(name);
      const dump =
        type === 'hash'
          ? JSON.stringify(await gw.deps.redis.hgetall(name))
          : type === 'set'
            ? JSON.stringify(await gw.deps.redis.smembers(name))
            : String(await gw.deps.redis.get(name));
      expect(dump).not.toContain(key.slice(12));
    }
  });
});

describe('hosted mode: Redis unavailable', () => {
  it('answers authenticated requests with 503, never a free pass; health still answers', async () => {
    const gw = await startTestGateway({ MODE: 'hosted', API_KEYS: 'static-when-down-001:pro' });
    try {
      await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
      gw.deps.redis.disconnect();
      const response = await probe(gw.origin, 'static-when-down-001');
      expect(response.status).toBe(503);
      expect(response.json).toMatchObject({ success: false, code: 'UNAVAILABLE' });
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect((await probe(gw.origin)).status).toBe(401);
      expect((await getJson(`${gw.origin}/v1/health`)).status).toBe(503);
    } finally {
      await gw.close();
    }
  });
});

describe('local mode', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ API_KEYS: 'ignored-locally-0001:free' });
  });
  afterAll(() => stop(gw));

  it('needs no key and applies no limits', async () => {
    for (let i = 0; i < 15; i++) {
      const response = await probe(gw.origin, i % 2 ? 'any-placeholder' : undefined);
      expect(response.status).toBe(404);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const invalid = await postJson(`${gw.origin}/v1/screenshots`, { url: 42 });
    expect(invalid.status).toBe(400);
  });
});

describe('hosted mode: jobs belong to the key that created them', () => {
  const OWNER = 'static-job-owner-0001';
  const OTHER = 'static-job-other-0001';
  let gw: TestGateway;
  beforeAll(async () => {
    // No worker runs here: the job stays queued, which is all these lookups need.
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: `${OWNER}:pro,${OTHER}:pro`, ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(() => stop(gw));

  it('shows a job to its key and answers any other key as if it did not exist', async () => {
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const created = await postJson(`${gw.origin}/v1/screenshots`, { url: 'http://127.0.0.1:9/' }, auth(OWNER));
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;

    const mine = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`, auth(OWNER));
    expect(mine.status).toBe(202);
    expect(mine.json).toMatchObject({ job_id: jobId, status: 'processing' });
    expect((await getJson(`${gw.origin}/v1/crawl/${jobId}`, auth(OWNER))).status).toBe(200);

    const theirs = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`, auth(OTHER));
    const unknown = await getJson(`${gw.origin}/v1/screenshots?job_id=00000000-0000-4000-8000-000000000000`, auth(OTHER));
    expect(theirs.status).toBe(404);
    expect(theirs.json.code).toBe('NOT_FOUND');
    expect(unknown.status).toBe(404);
    const lookup = await getJson(`${gw.origin}/v1/crawl/${jobId}`, auth(OTHER));
    expect(lookup.status).toBe(404);
    expect(lookup.json).toEqual({ success: false, code: 'NOT_FOUND', error: `Job ${jobId} was not found (unknown or expired)` });
  });
});
