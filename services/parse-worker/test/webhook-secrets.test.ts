/**
 * Per-key webhook secrets in hosted mode: each issued key's crawl and watch webhooks are signed
 * with that key's own secret (and verify with no other key's), a rotation applies to the next
 * webhook, and a key without a secret of its own gets a 400 for webhook_url instead of a webhook
 * signed with someone else's secret. Local mode signs with a secret of its own, never
 * URL_SIGNING_SECRET.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashApiKey, keyIdOf, loadConfig } from '@sitelens/config';
import { WebhookSecretStore } from '@sitelens/queue';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { signWebhookBody } from '@sitelens/egress';
import { ApiKeyStore } from '@sitelens/gateway';
import { postJson } from '@sitelens/testkit/test-gateway';
import { contentWorkersForTests, startFixtureSite, type FixtureSite, testRedisUrl, uniquePrefix } from '@sitelens/testkit';
import { openParseWorkerContext } from '../src/context';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { startHookReceiver, type HookReceiver, type ReceivedHook } from './support/watch-fixtures';

type Json = Record<string, unknown>;
const STATIC_KEY = 'static-webhook-key-0001';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const signature = (hook: ReceivedHook) => hook.headers['x-signature'];

describe('webhook secrets per API key (hosted mode)', () => {
  let stack: ServiceStack;
  let site: FixtureSite;
  let hooks: HookReceiver;
  let keys: ApiKeyStore;
  let secrets: WebhookSecretStore;
  let alice: { key: string; keyId: string; secret: string };
  let bob: { key: string; keyId: string; secret: string };

  beforeAll(async () => {
    // Loopback allowed: the fixture site and the receiver are local. No WEBHOOK_SECRET.
    stack = await startServiceStack({ MODE: 'hosted', ALLOW_PRIVATE_URLS: 'true', API_KEYS: `${STATIC_KEY}:pro` });
    site = await startFixtureSite();
    site.route('/', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1><p>A page.</p>'));
    hooks = await startHookReceiver();
    keys = new ApiKeyStore(stack.gateway.deps.redis, stack.gateway.config.redis.prefix);
    secrets = new WebhookSecretStore(stack.gateway.deps.redis, stack.gateway.config.redis.prefix);
    const issue = async (name: string) => {
      const created = await keys.create('pro', name);
      return { key: created.key, keyId: created.record.keyId, secret: created.webhookSecret };
    };
    alice = await issue('alice');
    bob = await issue('bob');
  });
  afterAll(async () => {
    await stack?.close();
    await site?.close();
    await hooks?.close();
  });

  async function crawlHook(key: string): Promise<ReceivedHook> {
    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 1, webhook_url: hooks.url }, bearer(key));
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    const [hook] = (
      await pollUntil(
        async () => hooks.received.filter((h) => (JSON.parse(h.body) as Json).job_id === jobId),
        (found) => found.length > 0,
      )
    ).at(-1)!;
    return hook!;
  }

  it('issues a distinct secret with each key, kept by key id', async () => {
    expect(alice.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(bob.secret).not.toBe(alice.secret);
    expect(await secrets.get(alice.keyId)).toBe(alice.secret);
    expect(await secrets.get(bob.keyId)).toBe(bob.secret);
  });

  it("signs each key's crawl webhook with its own secret, which another key's does not verify", async () => {
    const [fromAlice, fromBob] = await Promise.all([crawlHook(alice.key), crawlHook(bob.key)]);
    expect(signature(fromAlice)).toBe(signWebhookBody(fromAlice.body, alice.secret));
    expect(signature(fromAlice)).not.toBe(signWebhookBody(fromAlice.body, bob.secret));
    expect(signature(fromBob)).toBe(signWebhookBody(fromBob.body, bob.secret));
    expect(signature(fromBob)).not.toBe(signWebhookBody(fromBob.body, alice.secret));
  });

  it("signs a key's watch webhooks with its own secret", async () => {
    const created = await postJson(
      `${stack.origin}/v1/watch`,
      { url: `${site.origin}/`, frequency: 'daily', webhook_url: hooks.url, notification_preference: 'all_runs' },
      bearer(bob.key),
    );
    expect(created.status).toBe(201);
    const watchId = created.json.watch_id as string;
    const [hook] = await pollUntil(
      async () => hooks.received.filter((h) => (JSON.parse(h.body) as Json).watch_id === watchId),
      (found) => found.length > 0,
    ).then((seen) => seen.at(-1)!);
    expect(signature(hook!)).toBe(signWebhookBody(hook!.body, bob.secret));
    expect(signature(hook!)).not.toBe(signWebhookBody(hook!.body, alice.secret));
  });

  it('signs with the new secret once it is rotated, and the old one no longer verifies', async () => {
    const rotated = await secrets.rotate(alice.keyId);
    const hook = await crawlHook(alice.key);
    expect(signature(hook)).toBe(signWebhookBody(hook.body, rotated));
    expect(signature(hook)).not.toBe(signWebhookBody(hook.body, alice.secret));
    alice.secret = rotated;
  });

  it('refuses webhook_url with a 400 for a key without a secret of its own, and takes it once one is issued', async () => {
    // A key issued before per-key secrets: no secret in Redis.
    const old = await keys.create('pro', 'before-secrets');
    await stack.gateway.deps.redis.hdel(secrets.key, old.record.keyId);
    const refused = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, webhook_url: hooks.url }, bearer(old.key));
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field: 'webhook_url' });
    expect(refused.json.error).toMatch(/no webhook signing secret/);
    const watch = await postJson(
      `${stack.origin}/v1/watch`,
      { url: `${site.origin}/`, frequency: 'daily', webhook_url: hooks.url },
      bearer(old.key),
    );
    expect(watch.status).toBe(400);
    // Without a webhook the key works as before.
    expect((await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 1 }, bearer(old.key))).status).toBe(202);

    const issued = await secrets.rotate(old.record.keyId);
    const hook = await crawlHook(old.key);
    expect(signature(hook)).toBe(signWebhookBody(hook.body, issued));
  });

  it('refuses webhook_url with a 400 for a static key when WEBHOOK_SECRET is unset (and never signs with another secret)', async () => {
    const refused = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, webhook_url: hooks.url }, bearer(STATIC_KEY));
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'webhook_url' });
    const resolve = stack.worker.context.webhookSecrets;
    expect(await resolve.secretFor(keyIdOf(hashApiKey(STATIC_KEY)))).toBeUndefined();
    expect(await resolve.secretFor(alice.keyId)).toBe(alice.secret);
    expect(await resolve.secretFor('0123456789abcdef')).toBeUndefined();
    // Hosted mode keeps no webhook secret in DATA_DIR.
    expect(existsSync(path.join(stack.gateway.config.storage.dataDir, '.webhook-secret'))).toBe(false);
  });
});

describe('webhook secrets of static keys and local mode', () => {
  const silent = createLogger({ level: 'silent', service: 'webhook-secrets-test' });
  const metrics = () => createMetrics({ service: 'webhook-secrets-test', collectDefaults: false });

  async function secretsFor(env: Record<string, string>) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelens-whsec-'));
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniquePrefix('whsec'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...env,
    });
    const opened = await openParseWorkerContext(config, silent, metrics(), { contentWorkers: contentWorkersForTests() });
    const { redis } = opened.context;
    await new Promise<void>((resolve) => (redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve())));
    return { dataDir, secrets: opened.context.webhookSecrets, close: opened.close };
  }

  it('signs static keys with WEBHOOK_SECRET in hosted mode', async () => {
    const { secrets, close } = await secretsFor({
      MODE: 'hosted',
      API_KEYS: `${STATIC_KEY}:pro`,
      WEBHOOK_SECRET: 'operator-webhook-secret',
    });
    try {
      expect(await secrets.secretFor(keyIdOf(hashApiKey(STATIC_KEY)))).toBe('operator-webhook-secret');
      // An issued key's id never falls back to it.
      expect(await secrets.secretFor('fedcba9876543210')).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('generates a local secret of its own in DATA_DIR, never URL_SIGNING_SECRET', async () => {
    const { dataDir, secrets, close } = await secretsFor({ URL_SIGNING_SECRET: 'file-url-signing-secret' });
    try {
      const secret = await secrets.secretFor(undefined);
      expect(secret).toEqual(expect.any(String));
      expect(secret).not.toBe('file-url-signing-secret');
      expect(secret!.length).toBeGreaterThanOrEqual(40);
      expect(readFileSync(path.join(dataDir, '.webhook-secret'), 'utf8').trim()).toBe(secret);
    } finally {
      await close();
    }
  });

  it('uses WEBHOOK_SECRET in local mode when it is set', async () => {
    const { dataDir, secrets, close } = await secretsFor({ WEBHOOK_SECRET: 'local-webhook-secret' });
    try {
      expect(await secrets.secretFor(undefined)).toBe('local-webhook-secret');
      expect(existsSync(path.join(dataDir, '.webhook-secret'))).toBe(false);
    } finally {
      await close();
    }
  });
});
