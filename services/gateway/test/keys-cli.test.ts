import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@sitelens/config';
import { WebhookSecretStore } from '@sitelens/queue';
import { hashApiKey } from '../src/auth/api-keys';
import { runKeysCli } from '../src/cli/keys';
import { deletePrefix, eventually, probe } from '@sitelens/testkit/hosted';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import { testRedisUrl, REPO_ROOT } from '@sitelens/testkit';

const ROOT = REPO_ROOT;
const ENTRY = path.join(ROOT, 'services/gateway/dist/cli/keys.js');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) }, out, err };
}

/** `npm run keys -- ...` as an operator runs it: the built entry, settings from the environment. */
function runBuilt(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENTRY, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('keys CLI', () => {
  let gw: TestGateway;
  let env: Record<string, string>;
  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: 'operator-static-key1:enterprise' });
    env = { REDIS_URL: testRedisUrl(), QUEUE_PREFIX: gw.config.redis.prefix, API_KEYS: 'operator-static-key1:enterprise' };
  });
  afterAll(async () => {
    await deletePrefix(gw.deps.redis, gw.config.redis.prefix);
    await gw.close();
  });

  it('creates, lists and revokes a key through the built entry, and the gateway follows', async () => {
    expect(existsSync(ENTRY)).toBe(true); // needs a build: pnpm exec tsc -b tsconfig.json

    const created = await runBuilt(['create', '--plan', 'pro', '--name', 'acme'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(created.stderr).toMatch(/Created a pro key "acme": prefix sk_live_\w{4}, id [0-9a-f]{16}/);
    expect(created.stderr).toMatch(/cannot be shown again/);
    expect(created.stderr).toMatch(/Webhook signing secret of this key \(X-Signature of its crawl and watch webhooks\): whsec_[\w-]{43}\n/);

    const allowed = await probe(gw.origin, key);
    expect(allowed.status).toBe(404);
    expect(allowed.headers.get('x-ratelimit-limit')).toBe('100');

    const listed = await runBuilt(['list'], env);
    expect(listed.code).toBe(0);
    const prefix = key.slice(0, 12);
    expect(listed.stdout).toMatch(/^PREFIX\s+KEY ID\s+PLAN\s+STATUS\s+CREATED\s+NAME$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${prefix}\\s+[0-9a-f]{16}\\s+pro\\s+active\\s+\\S+\\s+acme$`, 'm'));
    expect(listed.stdout).toMatch(/^\(API_KEYS\)\s+[0-9a-f]{16}\s+enterprise\s+static/m);
    expect(listed.stdout).not.toContain(key);
    expect(listed.stdout).not.toContain('operator-static-key1');

    const revoked = await runBuilt(['revoke', prefix], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`Revoked key ${prefix}`));
    // Polled with a deadline that only bounds the wait; the key cache's lifetime is what ends it.
    await eventually(async () => (await probe(gw.origin, key)).status === 401, 15_000);

    const after = await runBuilt(['list', '--json'], env);
    expect(JSON.parse(after.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ prefix, plan: 'pro', name: 'acme', status: 'revoked' })]),
    );
  });

  it('revokes by key id or whole key, and says so when it is already revoked', async () => {
    const config = loadConfig(env);
    const first = capture();
    expect(await runKeysCli(['create', '--plan', 'free'], first.io, config)).toBe(0);
    const key = first.out[0] ?? '';
    const keyId = hashApiKey(key).slice(0, 16);

    const byId = capture();
    expect(await runKeysCli(['revoke', keyId], byId.io, config)).toBe(0);
    expect(byId.out.join('\n')).toMatch(/Revoked key/);
    const again = capture();
    expect(await runKeysCli(['revoke', key], again.io, config)).toBe(0);
    expect(again.out.join('\n')).toMatch(/already revoked/);
  });

  it('creates with --json: the key and its webhook secret on stdout, for capture, and nothing secret on stderr', async () => {
    const created = await runBuilt(['create', '--plan', 'free', '--name', 'ci', '--json'], env);
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as Record<string, string>;
    expect(out).toEqual({
      key: expect.stringMatching(/^sk_live_[0-9A-Za-z]{32}$/),
      webhook_secret: expect.stringMatching(/^whsec_[\w-]{43}$/),
      key_id: hashApiKey(out.key).slice(0, 16),
      prefix: out.key.slice(0, 12),
      plan: 'free',
      name: 'ci',
      created_at: expect.any(String),
    });
    expect(created.stderr).toBe('');
    // The secret the workers will sign this key's webhooks with.
    expect(await new WebhookSecretStore(gw.deps.redis, gw.config.redis.prefix).get(out.key_id)).toBe(out.webhook_secret);
    expect((await probe(gw.origin, out.key)).status).toBe(404);
  });

  it("rotates a key's webhook secret: the new one alone on stdout (or in --json), stored for the workers", async () => {
    const config = loadConfig(env);
    const secrets = new WebhookSecretStore(gw.deps.redis, gw.config.redis.prefix);
    const first = capture();
    expect(await runKeysCli(['create', '--plan', 'pro', '--name', 'rotating'], first.io, config)).toBe(0);
    const key = first.out[0] ?? '';
    const keyId = hashApiKey(key).slice(0, 16);
    const original = /whsec_[\w-]{43}/.exec(first.err.join('\n'))?.[0];
    expect(await secrets.get(keyId)).toBe(original);

    const rotated = await runBuilt(['rotate-secret', key.slice(0, 12)], env);
    expect(rotated.code).toBe(0);
    const secret = rotated.stdout.trim();
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(secret).not.toBe(original);
    expect(rotated.stderr).toMatch(new RegExp(`New webhook signing secret for key ${key.slice(0, 12)} \\(${keyId}, "rotating"\\)`));
    expect(await secrets.get(keyId)).toBe(secret);

    const json = capture();
    expect(await runKeysCli(['rotate-secret', keyId, '--json'], json.io, config)).toBe(0);
    const again = JSON.parse(json.out.join('\n')) as Record<string, string>;
    expect(again).toEqual({ webhook_secret: expect.stringMatching(/^whsec_/), key_id: keyId, prefix: key.slice(0, 12) });
    expect(await secrets.get(keyId)).toBe(again.webhook_secret);
    // The key itself is untouched.
    expect((await probe(gw.origin, key)).status).toBe(404);

    expect(await runKeysCli(['revoke', keyId], capture().io, config)).toBe(0);
    const revoked = capture();
    expect(await runKeysCli(['rotate-secret', keyId], revoked.io, config)).toBe(1);
    expect(revoked.err.join('\n')).toMatch(/is revoked; it sends no webhooks/);
    expect(await secrets.get(keyId)).toBe(again.webhook_secret);
  });

  it('explains mistakes with exit codes: usage 2, not found 1', async () => {
    const config = loadConfig(env);
    const cases: Array<[string[], number, RegExp]> = [
      [[], 2, /Usage:/],
      [['create'], 2, /create needs --plan/],
      [['create', '--plan', 'gold'], 2, /Unknown plan "gold" \(plans: free, pro, enterprise\)/],
      [['create', '--plan', 'pro', '--colour', 'red'], 2, /Unknown option '--colour'/],
      [['revoke'], 2, /revoke needs one prefix/],
      [['rotate'], 2, /Unknown command "rotate"/],
      [['revoke', 'sk_live_Zzzz'], 1, /No issued key matches "sk_live_Zzzz"/],
      [['revoke', 'operator-static-key1'], 1, /static key from API_KEYS/],
      [['rotate-secret'], 2, /rotate-secret needs one prefix/],
      [['rotate-secret', 'sk_live_Zzzz'], 1, /No issued key matches "sk_live_Zzzz"/],
      [['rotate-secret', 'operator-static-key1'], 1, /static key from API_KEYS: its webhooks are signed with WEBHOOK_SECRET/],
    ];
    for (const [args, code, message] of cases) {
      const run = capture();
      expect(await runKeysCli(args, run.io, config)).toBe(code);
      expect(run.err.join('\n')).toMatch(message);
    }
  });

  it('reports an unreachable Redis and a bad API_KEYS without hanging', async () => {
    const down = await runBuilt(['list'], { REDIS_URL: 'redis://127.0.0.1:1', QUEUE_PREFIX: 'unused' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Redis is not reachable at 127\.0\.0\.1:1 \(REDIS_URL\): connect ECONNREFUSED/);
    const badConfig = await runBuilt(['list'], { ...env, API_KEYS: 'k:platinum' });
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/API_KEYS: entry 1 has unknown plan "platinum"/);
  });
});
