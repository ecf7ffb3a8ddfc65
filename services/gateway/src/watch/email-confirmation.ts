import { EmailConfirmations } from '@sitelens/watch';
import type { GatewayDeps } from '../deps';

export function emailConfirmationsOf(deps: Pick<GatewayDeps, 'redis' | 'config'>): EmailConfirmations {
  return new EmailConfirmations(deps.redis, deps.config.redis.prefix);
}

/**
 * Hosted mode: notes that `owner` asked for watch mail to `address`. Until someone follows the
 * link of the one confirmation mail (the parse worker sends it with the watch's first check), the
 * address gets no watch mail. `origin` is where that link points (PUBLIC_BASE_URL when set).
 */
export async function registerNotifyEmail(
  deps: Pick<GatewayDeps, 'redis' | 'config'>,
  owner: string,
  address: string,
  origin: string,
): Promise<void> {
  await emailConfirmationsOf(deps).register(owner, address, origin);
}
