import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Issued webhook secrets look like `whsec_` followed by 43 base64url characters (256 bits). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The webhook signing secret of each issued API key, by key id: `<prefix>:webhooksecrets` is a
 * hash (key id -> secret). Kept in clear because the parse workers sign with it (an HMAC needs the
 * secret itself); whoever reads this Redis reads every job too. The keys CLI writes it (at
 * `create` and `rotate-secret`), the gateway checks it exists before accepting a webhook_url, and
 * the parse workers read it at each delivery, so a rotation applies to the next webhook.
 */
export class WebhookSecretStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  get key(): string {
    return `${this.prefix}:webhooksecrets`;
  }

  async get(keyId: string): Promise<string | undefined> {
    return (await this.redis.hget(this.key, keyId)) ?? undefined;
  }

  async has(keyId: string): Promise<boolean> {
    return (await this.redis.hexists(this.key, keyId)) === 1;
  }

  /** Stores a fresh secret for the key, replacing any earlier one; returns it (show it once). */
  async rotate(keyId: string): Promise<string> {
    const secret = generateWebhookSecret();
    await this.redis.hset(this.key, keyId, secret);
    return secret;
  }
}
