import type { Request } from 'express';
import { BadRequest } from '@sitelens/contracts';
import { WebhookSecretStore } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { withRedis } from '../jobs/redis-guard';
import { hashApiKey, keyIdOf } from './api-keys';

/**
 * A webhook_url is taken only when its webhooks can be signed with the caller's own secret: in
 * hosted mode an issued key needs its secret in Redis (keys issued before per-key secrets get one
 * with `keys rotate-secret`), a static API_KEYS key needs WEBHOOK_SECRET. Otherwise the request is
 * a 400 naming webhook_url, rather than a webhook signed with a secret someone else holds, or
 * none at all. Local mode always signs (WEBHOOK_SECRET or DATA_DIR's).
 */
export async function assertWebhookSignable(req: Request, deps: Pick<GatewayDeps, 'config' | 'redis'>): Promise<void> {
  const { config } = deps;
  const keyId = req.auth?.keyId;
  if (config.mode !== 'hosted' || keyId === undefined) return;
  const isStatic = config.apiKeys.some(({ key }) => keyIdOf(hashApiKey(key)) === keyId);
  const signable = isStatic
    ? config.webhookSecret !== undefined
    : await withRedis(deps.redis, () => new WebhookSecretStore(deps.redis, config.redis.prefix).has(keyId));
  if (signable) return;
  throw new BadRequest(
    "Invalid field 'webhook_url': webhooks are not available for this API key (it has no webhook signing secret; ask the operator for one)",
    { details: { field: 'webhook_url' } },
  );
}
