import { ConfigError, loadConfig, parseApiKeys } from '@sitelens/config';
import { PlanLimit, PLANS } from '@sitelens/contracts';
import { bearerToken, generateApiKey, hashApiKey, keyIdOf } from '../src/auth/api-keys';
import { KeyResolver } from '../src/auth/key-resolver';
import type { IssuedKey } from '../src/auth/key-store';
import { enforceBatchSize, enforceMapLimits, enforcePagesPerRequest, enforceStreaming } from '../src/auth/plan-limits';
import { bindingWindow, rateLimitHeaders, retryAfterSeconds, type WindowState } from '../src/auth/rate-limit';

describe('plan table', () => {
  it('carries the limits of spec section 8', () => {
    expect(PLANS).toMatchObject({
      free: { requestsPerMinute: 10, requestsPerDay: 100, pagesPerRequest: 5, streaming: false, runningJobs: 2 },
      pro: { requestsPerMinute: 100, requestsPerDay: 10_000, pagesPerRequest: 50, streaming: true, runningJobs: 10 },
      enterprise: { requestsPerMinute: 1_000, requestsPerDay: 100_000, pagesPerRequest: 100, streaming: true, runningJobs: 50 },
    });
  });

  it('caps watches per key and their schedule pace', () => {
    expect(PLANS.free).toMatchObject({ watches: 5, watchIntervalSeconds: 3_600 });
    expect(PLANS.pro).toMatchObject({ watches: 100, watchIntervalSeconds: 300 });
    expect(PLANS.enterprise).toMatchObject({ watches: 1_000, watchIntervalSeconds: 60 });
  });
});

describe('enforcePagesPerRequest', () => {
  const as = (plan: string) => ({ auth: { keyId: 'k', plan } });

  it('lets a request at or under the cap through with its own count', () => {
    expect(enforcePagesPerRequest(as('pro'), 50, 'max_pages', 10)).toBe(50);
    expect(enforcePagesPerRequest(as('free'), 5, 'link_limit', 10)).toBe(5);
    expect(enforcePagesPerRequest(as('enterprise'), 100, 'max_pages', 10)).toBe(100);
  });

  it('refuses more than the cap with 403 PLAN_LIMIT naming field, plan and cap', () => {
    const attempt = () => enforcePagesPerRequest(as('pro'), 80, 'max_pages', 10);
    expect(attempt).toThrow(PlanLimit);
    expect(attempt).toThrow("max_pages 80 exceeds the pro plan's limit of 50 pages per request");
    try {
      enforcePagesPerRequest(as('free'), 6, 'link_limit', 10);
    } catch (error) {
      expect((error as PlanLimit).status).toBe(403);
      expect((error as PlanLimit).toBody()).toEqual({
        success: false,
        code: 'PLAN_LIMIT',
        error: "link_limit 6 exceeds the free plan's limit of 5 pages per request",
      });
    }
    expect.assertions(4);
  });

  it('lowers an unstated count to the cap instead of refusing the default', () => {
    expect(enforcePagesPerRequest(as('free'), undefined, 'max_pages', 10)).toBe(5);
    expect(enforcePagesPerRequest(as('pro'), undefined, 'max_pages', 10)).toBe(10);
  });

  it('applies no cap in local mode (no auth on the request)', () => {
    expect(enforcePagesPerRequest({}, 1000, 'link_limit', 10)).toBe(1000);
    expect(enforcePagesPerRequest({}, undefined, 'link_limit', 10)).toBe(10);
  });

  it('refuses a plan it does not know rather than leaving it uncapped', () => {
    expect(() => enforcePagesPerRequest(as('gold'), 1, 'max_pages', 10)).toThrow(PlanLimit);
  });
});

describe('enforceMapLimits', () => {
  const as = (plan: string) => ({ auth: { keyId: 'k', plan } });

  it('caps the URLs a map answers and the pages its walk reads by plan; locally the walk reads at least the default', () => {
    expect(enforceMapLimits(as('free'), undefined)).toEqual({ limit: 500, maxPages: 25 });
    expect(enforceMapLimits(as('pro'), 2_000)).toEqual({ limit: 2_000, maxPages: 500 });
    expect(enforceMapLimits(as('enterprise'), undefined)).toEqual({ limit: 1_000, maxPages: 2_000 });
    expect(enforceMapLimits({}, undefined)).toEqual({ limit: 1_000, maxPages: 1_000 });
    expect(enforceMapLimits({}, 5)).toEqual({ limit: 5, maxPages: 1_000 });
    expect(enforceMapLimits({}, 8_000)).toEqual({ limit: 8_000, maxPages: 8_000 });
  });

  it('refuses a limit over the plan with 403 PLAN_LIMIT naming it', () => {
    const attempt = () => enforceMapLimits(as('free'), 501);
    expect(attempt).toThrow(PlanLimit);
    expect(attempt).toThrow("limit 501 exceeds the free plan's limit of 500 URLs per map");
  });
});

describe('enforceBatchSize', () => {
  const as = (plan: string) => ({ auth: { keyId: 'k', plan } });

  it('lets a batch within the plan through and refuses a larger one with 403 PLAN_LIMIT naming the cap', () => {
    expect(() => enforceBatchSize(as('free'), 10)).not.toThrow();
    expect(() => enforceBatchSize({}, 1_000)).not.toThrow();
    expect(() => enforceBatchSize(as('free'), 11)).toThrow("11 urls exceed the free plan's limit of 10 URLs per batch");
    expect(() => enforceBatchSize(as('pro'), 101)).toThrow(PlanLimit);
    expect(() => enforceBatchSize(as('enterprise'), 1_000)).not.toThrow();
  });
});

describe('enforceStreaming', () => {
  it('refuses streaming on the free plan with 403 PLAN_LIMIT', () => {
    expect(() => enforceStreaming({ auth: { keyId: 'k', plan: 'free' } })).toThrow(/Streaming is not available on the free plan/);
  });

  it('allows streaming on pro, enterprise and locally', () => {
    expect(() => enforceStreaming({ auth: { keyId: 'k', plan: 'pro' } })).not.toThrow();
    expect(() => enforceStreaming({ auth: { keyId: 'k', plan: 'enterprise' } })).not.toThrow();
    expect(() => enforceStreaming({})).not.toThrow();
  });
});

describe('rate-limit arithmetic', () => {
  const minute = (remaining: number): WindowState => ({ window: 'minute', limit: 100, remaining, msBeforeReset: 30_000 });
  const day = (remaining: number): WindowState => ({ window: 'day', limit: 10_000, remaining, msBeforeReset: 3_600_000 });

  it('reports the minute window unless the day one is closer to 0', () => {
    expect(bindingWindow(minute(40), day(9_000)).window).toBe('minute');
    expect(bindingWindow(minute(40), day(40)).window).toBe('minute');
    expect(bindingWindow(minute(40), day(39)).window).toBe('day');
    expect(bindingWindow(minute(0), day(0)).window).toBe('minute');
  });

  it('gives the reset as Unix seconds, rounded up', () => {
    expect(rateLimitHeaders(minute(7), 1_700_000_000_500)).toEqual({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1700000031',
    });
  });

  it('never tells a client to retry after 0 seconds', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1_001)).toBe(2);
    expect(retryAfterSeconds(59_999)).toBe(60);
  });
});

describe('API key material', () => {
  it('issues sk_live_ keys of 32 base62 characters, all different', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const k of keys) {
      expect(k.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect(k.hash).toBe(hashApiKey(k.key));
      expect(k.keyId).toBe(k.hash.slice(0, 16));
      expect(k.displayPrefix).toBe(k.key.slice(0, 12));
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
  });

  it('uses every base62 character (no visibly biased alphabet)', () => {
    const seen = new Set(Array.from({ length: 100 }, () => generateApiKey().key.slice(8)).join(''));
    expect(seen.size).toBe(62);
  });

  it('reads the key from a Bearer header only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('API_KEYS', () => {
  it('parses key:plan pairs', () => {
    expect(loadConfig({ API_KEYS: ' k1-long-enough:pro , k2:free,' }).apiKeys).toEqual([
      { key: 'k1-long-enough', plan: 'pro' },
      { key: 'k2', plan: 'free' },
    ]);
    expect(loadConfig({}).apiKeys).toEqual([]);
  });

  it('fails at start on an unknown plan, naming the variable and the plans but not the key', () => {
    const attempt = () => loadConfig({ API_KEYS: 'good:pro,secret-key:gold' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/API_KEYS: entry 2 has unknown plan "gold" \(plans: free, pro, enterprise\)/);
    expect(attempt).not.toThrow(/secret-key/);
  });

  it.each([
    ['nokeyplan', /entry 1 is not key:plan/],
    [':pro', /entry 1 is not key:plan/],
    ['a b:pro', /entry 1 has an empty key or a key with spaces/],
    ['k:pro,k:free', /entry 2 repeats a key/],
  ])('rejects %p', (value, message) => {
    expect(parseApiKeys(value)).toEqual({ error: expect.stringMatching(message) });
  });
});

describe('KeyResolver', () => {
  function fakeStore(records: Map<string, IssuedKey>) {
    const calls: string[] = [];
    return { calls, find: async (hash: string) => (calls.push(hash), records.get(hash)) };
  }
  const issued = (key: string, revokedAt?: string): IssuedKey => {
    const hash = hashApiKey(key);
    return { hash, keyId: keyIdOf(hash), displayPrefix: key.slice(0, 12), plan: 'pro', name: 'n', createdAt: 'x', revokedAt };
  };

  it('resolves static keys without the store', async () => {
    const store = fakeStore(new Map());
    const resolver = new KeyResolver([{ key: 'static-one', plan: 'enterprise' }], store);
    expect(await resolver.resolve('static-one')).toEqual({ keyId: keyIdOf(hashApiKey('static-one')), plan: 'enterprise' });
    expect(await resolver.resolve('static-two')).toBeUndefined();
    expect(store.calls).toHaveLength(1);
  });

  it('caches an issued key for the cache time only, so a revocation applies after it', async () => {
    const records = new Map<string, IssuedKey>();
    const key = 'sk_live_exampleexampleexampleexample12';
    records.set(hashApiKey(key), issued(key));
    const store = fakeStore(records);
    let now = 1_000;
    const resolver = new KeyResolver([], store, 2_000, () => now);
    expect(await resolver.resolve(key)).toMatchObject({ plan: 'pro' });
    records.set(hashApiKey(key), issued(key, 'now'));
    now += 1_999;
    expect(await resolver.resolve(key)).toMatchObject({ plan: 'pro' });
    expect(store.calls).toHaveLength(1);
    now += 2;
    expect(await resolver.resolve(key)).toBeUndefined();
  });

  it('does not cache unknown keys', async () => {
    const records = new Map<string, IssuedKey>();
    const store = fakeStore(records);
    const resolver = new KeyResolver([], store);
    const key = 'sk_live_newnewnewnewnewnewnewnewnewnewne';
    expect(await resolver.resolve(key)).toBeUndefined();
    records.set(hashApiKey(key), issued(key));
    expect(await resolver.resolve(key)).toMatchObject({ plan: 'pro' });
  });
});
