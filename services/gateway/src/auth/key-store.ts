import type { Redis } from 'ioredis';
import { isPlanName, type PlanName } from '@sitelens/contracts';
import { WebhookSecretStore, generateWebhookSecret } from '@sitelens/queue';
import { generateApiKey, hashApiKey, keyIdOf, KEY_PREFIX } from './api-keys';

/** An issued key as stored: never the key itself, only its hash and what describes it. */
export interface IssuedKey {
  hash: string;
  keyId: string;
  displayPrefix: string;
  plan: PlanName;
  name: string;
  createdAt: string;
  /** ISO time of revocation; a revoked key is refused at once (within the guard's short cache). */
  revokedAt?: string;
}

/**
 * Issued API keys in Redis, under the instance's prefix:
 * `<prefix>:apikeys:<sha256 hex>` is a hash (plan, name, prefix, created_at, revoked, revoked_at);
 * `<prefix>:apikeys:index` is the set of those hashes, for listing. Each key's webhook signing
 * secret is in `<prefix>:webhooksecrets` (see WebhookSecretStore), by key id.
 */
export class ApiKeyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private recordKey(hash: string): string {
    return `${this.prefix}:apikeys:${hash}`;
  }

  private get indexKey(): string {
    return `${this.prefix}:apikeys:index`;
  }

  /**
   * Issues a key with its own webhook signing secret, in one transaction. The returned `key` is
   * the only copy of it anywhere: show it once (the secret too, though the workers keep it).
   */
  async create(plan: PlanName, name: string): Promise<{ key: string; webhookSecret: string; record: IssuedKey }> {
    const fresh = generateApiKey();
    const webhookSecret = generateWebhookSecret();
    const createdAt = new Date().toISOString();
    await this.redis
      .multi()
      .hset(this.recordKey(fresh.hash), { plan, name, prefix: fresh.displayPrefix, created_at: createdAt, revoked: '0' })
      .sadd(this.indexKey, fresh.hash)
      .hset(new WebhookSecretStore(this.redis, this.prefix).key, fresh.keyId, webhookSecret)
      .exec();
    return {
      key: fresh.key,
      webhookSecret,
      record: { hash: fresh.hash, keyId: fresh.keyId, displayPrefix: fresh.displayPrefix, plan, name, createdAt },
    };
  }

  async find(hash: string): Promise<IssuedKey | undefined> {
    return toIssuedKey(hash, await this.redis.hgetall(this.recordKey(hash)));
  }

  /** Every issued key, revoked ones included, oldest first. */
  async list(): Promise<IssuedKey[]> {
    const hashes = await this.redis.smembers(this.indexKey);
    if (hashes.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const hash of hashes) pipeline.hgetall(this.recordKey(hash));
    const replies = (await pipeline.exec()) ?? [];
    const keys: IssuedKey[] = [];
    hashes.forEach((hash, index) => {
      const [error, fields] = replies[index] ?? [];
      const record = error ? undefined : toIssuedKey(hash, fields as Record<string, string>);
      if (record) keys.push(record);
    });
    return keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Issued keys a `keys revoke` argument names: a whole key, a key id (16 hex) or a display
   * prefix (`sk_live_AbCd`). More than one match means the caller must be more precise.
   */
  async match(selector: string): Promise<IssuedKey[]> {
    if (selector.startsWith(KEY_PREFIX) && selector.length > KEY_PREFIX.length + 4) {
      const found = await this.find(hashApiKey(selector));
      if (found) return [found];
    }
    const all = await this.list();
    return all.filter((key) => key.displayPrefix === selector || key.keyId === selector.toLowerCase());
  }

  /** Marks a key revoked; returns it, or undefined when no such key exists. */
  async revoke(hash: string): Promise<IssuedKey | undefined> {
    const existing = await this.find(hash);
    if (!existing) return undefined;
    if (existing.revokedAt) return existing;
    const revokedAt = new Date().toISOString();
    await this.redis.hset(this.recordKey(hash), { revoked: '1', revoked_at: revokedAt });
    return { ...existing, revokedAt };
  }
}

function toIssuedKey(hash: string, fields: Record<string, string> | undefined): IssuedKey | undefined {
  if (!fields || !fields.plan || !isPlanName(fields.plan)) return undefined;
  return {
    hash,
    keyId: keyIdOf(hash),
    displayPrefix: fields.prefix ?? '',
    plan: fields.plan,
    name: fields.name ?? '',
    createdAt: fields.created_at ?? '',
    revokedAt: fields.revoked === '1' ? (fields.revoked_at ?? 'unknown') : undefined,
  };
}
