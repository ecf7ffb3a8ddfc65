import type { Redis } from 'ioredis';
import { hashApiKey, keyIdOf, type Config } from '@sitelens/config';
import { WebhookSecretStore } from '@sitelens/queue';

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
