/** Watch e-mail consent in Redis: who may send the one confirmation request, and when. */
import { Redis } from 'ioredis';
import { EMAIL_CONFIRMATION, EmailConfirmations } from '../src';
import { deletePrefix, testRedisUrl, uniquePrefix } from '@sitelens/testkit';

describe('EmailConfirmations', () => {
  let redis: Redis;
  let prefix: string;
  let now: number;
  let confirmations: EmailConfirmations;
  const token = (link: string) => new URL(link).searchParams.get('token')!;

  beforeAll(() => {
    redis = new Redis(testRedisUrl());
  });
  beforeEach(() => {
    prefix = uniquePrefix('mail');
    now = 1_800_000_000_000;
    confirmations = new EmailConfirmations(redis, prefix, () => now);
  });
  afterEach(async () => {
    await deletePrefix(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  it('lets one request go to a registered address, with a link to the origin it was registered through', async () => {
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeUndefined();
    await confirmations.register('key-a', 'Ops@Example.com', 'https://api.example.com');
    const claims = await Promise.all(Array.from({ length: 5 }, () => confirmations.claim('key-a', 'ops@example.com')));
    const granted = claims.filter((claim) => claim !== undefined);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.link).toMatch(/^https:\/\/api\.example\.com\/v1\/watch\/confirm\?token=[A-Za-z0-9_-]{43}$/);
    // Registering again (another watch) does not bring a second request while the link works.
    await confirmations.register('key-a', 'ops@example.com', 'https://api.example.com');
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeUndefined();

    expect(await confirmations.isConfirmed('key-a', 'ops@example.com')).toBe(false);
    expect(await confirmations.confirm(token(granted[0]!.link))).toBe('Ops@Example.com');
    expect(await confirmations.isConfirmed('key-a', 'OPS@example.com')).toBe(true);
    expect(await confirmations.isConfirmed('key-b', 'ops@example.com')).toBe(false);
    expect(await confirmations.confirm('unknown-token')).toBeUndefined();
  });

  it('sends an address one request a day whatever the key, and gives a claim back when the mail failed', async () => {
    await confirmations.register('key-a', 'ops@example.com', 'https://a.example');
    await confirmations.register('key-b', 'ops@example.com', 'https://a.example');
    const first = await confirmations.claim('key-a', 'ops@example.com');
    expect(first).toBeDefined();
    expect(await confirmations.claim('key-b', 'ops@example.com')).toBeUndefined();

    await first!.release();
    expect(await confirmations.confirm(token(first!.link))).toBeUndefined();
    expect(await confirmations.claim('key-b', 'ops@example.com')).toBeDefined();
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeUndefined();
  });

  it('sends a new request after the link expired only when a watch names the address again', async () => {
    await confirmations.register('key-a', 'ops@example.com', 'https://a.example');
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeDefined();
    now += EMAIL_CONFIRMATION.linkTtlMs + 1;
    // The per-address window lives in Redis time: end it as its expiry would.
    const [window] = await redis.keys(`${prefix}:watch-email-sent:*`);
    await redis.del(window!);
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeUndefined();
    await confirmations.register('key-a', 'ops@example.com', 'https://a.example');
    expect(await confirmations.claim('key-a', 'ops@example.com')).toBeDefined();
  });
});
