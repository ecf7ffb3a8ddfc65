import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '@sitelens/config';
import { PLANS, PLAN_NAMES, errorMessage, isPlanName } from '@sitelens/contracts';
import { WebhookSecretStore, createRedis } from '@sitelens/queue';
import { hashApiKey, keyIdOf } from '../auth/api-keys';
import { ApiKeyStore, type IssuedKey } from '../auth/key-store';

/**
 * `npm run keys -- create --plan pro --name acme | list | revoke <prefix> | rotate-secret <prefix>`:
 * issues, lists and revokes hosted-mode API keys in the Redis of REDIS_URL, under QUEUE_PREFIX, and
 * issues each key's webhook signing secret (at create, and anew with rotate-secret).
 */

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `Usage:
  npm run keys -- create --plan <${PLAN_NAMES.join('|')}> [--name <name>] [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke <prefix | key id | key>
  npm run keys -- rotate-secret <prefix | key id | key> [--json]
Uses REDIS_URL and QUEUE_PREFIX like the service.`;

class UsageError extends Error {}

/** Runs the CLI; resolves to the process exit code. `config` defaults to the environment's. */
export async function runKeysCli(argv: readonly string[], io: CliIo, config?: Config): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) {
    io.err(USAGE);
    return 2;
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return 0;
  }
  let redis: Redis | undefined;
  try {
    const settings = config ?? loadConfig();
    const parsed = parseCommand(command, rest);
    redis = await connect(settings.redis.url);
    const store = new ApiKeyStore(redis, settings.redis.prefix);
    if (parsed.command === 'create') await create(store, parsed.plan, parsed.name, parsed.json, io);
    else if (parsed.command === 'list') await list(store, settings, parsed.json, io);
    else if (parsed.command === 'rotate-secret')
      return await rotateSecret(store, new WebhookSecretStore(redis, settings.redis.prefix), settings, parsed, io);
    else return await revoke(store, settings, parsed.selector, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${USAGE}`);
      return 2;
    }
    // ConfigError messages name the bad variable; Redis errors carry no secrets.
    io.err(errorMessage(error));
    return 1;
  } finally {
    redis?.disconnect();
  }
}

type Command =
  | { command: 'create'; plan: (typeof PLAN_NAMES)[number]; name: string; json: boolean }
  | { command: 'list'; json: boolean }
  | { command: 'revoke'; selector: string }
  | { command: 'rotate-secret'; selector: string; json: boolean };

function parseCommand(command: string, args: string[]): Command {
  try {
    if (command === 'create') {
      const { values } = parseArgs({
        args,
        options: { plan: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
        strict: true,
      });
      if (!values.plan) throw new UsageError('create needs --plan');
      if (!isPlanName(values.plan)) throw new UsageError(`Unknown plan "${values.plan}" (plans: ${PLAN_NAMES.join(', ')})`);
      const name = (values.name ?? '').trim();
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      return { command, plan: values.plan, name, json: values.json ?? false };
    }
    if (command === 'list') {
      const { values } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
      return { command, json: values.json ?? false };
    }
    if (command === 'revoke') {
      const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
      if (positionals.length !== 1 || !positionals[0]) throw new UsageError('revoke needs one prefix, key id or key');
      return { command, selector: positionals[0] };
    }
    if (command === 'rotate-secret') {
      const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
      if (positionals.length !== 1 || !positionals[0]) throw new UsageError('rotate-secret needs one prefix, key id or key');
      return { command, selector: positionals[0], json: values.json ?? false };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(errorMessage(error));
  }
  throw new UsageError(`Unknown command "${command}"`);
}

/** A fail-fast connection: the CLI reports an unreachable Redis instead of waiting on it. */
async function connect(url: string): Promise<Redis> {
  // No reconnecting: a refused or failed first connection is the answer.
  const redis = createRedis(url, 'client', { retryStrategy: () => null });
  const problem = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve('no answer in 5 s'), 5_000);
    const settle = (value: string | undefined) => {
      clearTimeout(timer);
      resolve(value);
    };
    redis.once('ready', () => settle(undefined));
    redis.on('error', (error: Error) => settle(error.message));
    redis.once('end', () => settle('connection closed'));
  });
  if (problem !== undefined) {
    redis.disconnect();
    throw new Error(`Redis is not reachable at ${safeAddress(url)} (REDIS_URL): ${problem}`);
  }
  return redis;
}

/** host:port of a Redis URL, without credentials. */
function safeAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'the configured address';
  }
}

async function create(store: ApiKeyStore, plan: (typeof PLAN_NAMES)[number], name: string, json: boolean, io: CliIo): Promise<void> {
  const { key, webhookSecret, record } = await store.create(plan, name);
  const limits = PLANS[plan];
  if (json) {
    // Everything on stdout, for `OUT=$(npm run -s keys -- create ... --json)` and jq.
    io.out(
      JSON.stringify(
        {
          key,
          webhook_secret: webhookSecret,
          key_id: record.keyId,
          prefix: record.displayPrefix,
          plan,
          name,
          created_at: record.createdAt,
        },
        null,
        2,
      ),
    );
    return;
  }
  // The key alone on stdout, so `KEY=$(npm run -s keys -- create ...)` works; the rest on stderr.
  io.out(key);
  io.err(
    `Created a ${plan} key${name ? ` "${name}"` : ''}: prefix ${record.displayPrefix}, id ${record.keyId}, ` +
      `${limits.requestsPerMinute}/min, ${limits.requestsPerDay}/day.\n` +
      `Webhook signing secret of this key (X-Signature of its crawl and watch webhooks): ${webhookSecret}\n` +
      'Store the key now: only its SHA-256 hash is kept, so it cannot be shown again. ' +
      'Give the key and the secret to its owner (--json prints both on stdout).',
  );
}

interface ListedKey {
  prefix: string;
  key_id: string;
  plan: string;
  name: string;
  created_at: string;
  status: 'active' | 'revoked' | 'static';
}

async function list(store: ApiKeyStore, config: Config, json: boolean, io: CliIo): Promise<void> {
  const statics: ListedKey[] = config.apiKeys.map(({ key, plan }) => ({
    // Static keys may be short: show none of their characters.
    prefix: '(API_KEYS)',
    key_id: keyIdOf(hashApiKey(key)),
    plan,
    name: '',
    created_at: '',
    status: 'static',
  }));
  const issued: ListedKey[] = (await store.list()).map((key: IssuedKey) => ({
    prefix: key.displayPrefix,
    key_id: key.keyId,
    plan: key.plan,
    name: key.name,
    created_at: key.createdAt,
    status: key.revokedAt ? 'revoked' : 'active',
  }));
  const rows = [...statics, ...issued];
  if (json) {
    io.out(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    io.out('No API keys. Issue one with: npm run keys -- create --plan pro --name <name>');
    return;
  }
  const header = ['PREFIX', 'KEY ID', 'PLAN', 'STATUS', 'CREATED', 'NAME'];
  const table = [header, ...rows.map((r) => [r.prefix, r.key_id, r.plan, r.status, r.created_at || '-', r.name || '-'])];
  const widths = header.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  for (const row of table)
    io.out(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}

async function revoke(store: ApiKeyStore, config: Config, selector: string, io: CliIo): Promise<number> {
  const target = await onlyMatch(store, config, selector, 'revoke', io);
  if (!target) return 1;
  const wasRevoked = Boolean(target.revokedAt);
  await store.revoke(target.hash);
  io.out(
    wasRevoked
      ? `Key ${target.displayPrefix} (${target.keyId}) was already revoked.`
      : `Revoked key ${target.displayPrefix} (${target.keyId}${target.name ? `, "${target.name}"` : ''}); gateways refuse it within seconds.`,
  );
  return 0;
}

async function rotateSecret(
  store: ApiKeyStore,
  secrets: WebhookSecretStore,
  config: Config,
  { selector, json }: { selector: string; json: boolean },
  io: CliIo,
): Promise<number> {
  const target = await onlyMatch(store, config, selector, 'rotate its secret', io);
  if (!target) return 1;
  if (target.revokedAt) {
    io.err(`Key ${target.displayPrefix} (${target.keyId}) is revoked; it sends no webhooks.`);
    return 1;
  }
  const secret = await secrets.rotate(target.keyId);
  if (json) {
    io.out(JSON.stringify({ webhook_secret: secret, key_id: target.keyId, prefix: target.displayPrefix }, null, 2));
    return 0;
  }
  // The secret alone on stdout, like the key at create: `SECRET=$(npm run -s keys -- rotate-secret ...)`.
  io.out(secret);
  io.err(
    `New webhook signing secret for key ${target.displayPrefix} (${target.keyId}${target.name ? `, "${target.name}"` : ''}): ` +
      'webhooks sent from now on are signed with it; the old one no longer verifies them.',
  );
  return 0;
}

/** The one issued key `selector` names, or undefined after saying why there is none. */
async function onlyMatch(store: ApiKeyStore, config: Config, selector: string, action: string, io: CliIo): Promise<IssuedKey | undefined> {
  const matches = await store.match(selector);
  if (matches.length === 0) {
    const isStatic = config.apiKeys.some(({ key }) => key === selector || keyIdOf(hashApiKey(key)) === selector.toLowerCase());
    io.err(
      isStatic
        ? action === 'revoke'
          ? 'That is a static key from API_KEYS: remove it there and restart the gateway.'
          : 'That is a static key from API_KEYS: its webhooks are signed with WEBHOOK_SECRET; change that and restart the parse workers.'
        : `No issued key matches "${selector}". See: npm run keys -- list`,
    );
    return undefined;
  }
  if (matches.length > 1) {
    io.err(`"${selector}" matches ${matches.length} keys; ${action} by key id instead:`);
    for (const key of matches) io.err(`  ${key.keyId}  ${key.plan}  ${key.name || '-'}`);
    return undefined;
  }
  return matches[0];
}

if (require.main === module) {
  void runKeysCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => {
    process.exitCode = code;
  });
}
