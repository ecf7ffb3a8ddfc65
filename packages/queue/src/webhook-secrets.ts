import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { hashApiKey, keyIdOf, type Config } from '@sitelens/config';

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

/**
 * Which secret signs a job's webhooks, by the job's owner (the API key id the gateway put on it):
 * - no owner (local mode): WEBHOOK_SECRET, or the local secret generated into DATA_DIR;
 * - a static key from API_KEYS: WEBHOOK_SECRET (none in hosted mode without it);
 * - an issued key: its own secret from Redis, read at each delivery so a rotation applies at
 *   once; never another key's, and never WEBHOOK_SECRET.
 * Undefined means the webhook is not sent (the gateway refuses webhook_url in that case already).
 */
export interface WebhookSecrets {
  secretFor(owner: string | undefined): Promise<string | undefined>;
}

export function createWebhookSecrets(
  config: Pick<Config, 'apiKeys' | 'webhookSecret' | 'redis'>,
  redis: Redis,
  localSecret: string | undefined,
): WebhookSecrets {
  const staticKeyIds = new Set(config.apiKeys.map(({ key }) => keyIdOf(hashApiKey(key))));
  const issued = new WebhookSecretStore(redis, config.redis.prefix);
  return {
    async secretFor(owner) {
      if (owner === undefined || owner === '') return localSecret;
      if (staticKeyIds.has(owner)) return config.webhookSecret;
      return issued.get(owner);
    },
  };
}
