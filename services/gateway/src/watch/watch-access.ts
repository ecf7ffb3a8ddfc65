import type { Request } from 'express';
import { NotFound, type WatchRecord } from '@sitelens/contracts';
import { WatchStore } from '@sitelens/watch';
import type { GatewayDeps } from '../deps';
import { withRedis } from '../jobs/redis-guard';

export function watchStoreOf(deps: Pick<GatewayDeps, 'redis' | 'config'>): WatchStore {
  return new WatchStore(deps.redis, deps.config.redis.prefix);
}

/**
 * Whose watches a request sees: in hosted mode the calling key's; locally (no keys) every watch.
 * Undefined means "every watch".
 */
export function watchOwnerOf(req: Request, deps: Pick<GatewayDeps, 'config'>): string | undefined {
  return deps.config.mode === 'hosted' ? (req.auth?.keyId ?? '') : undefined;
}

/** The watch when it exists and the caller may see it; another key's watch is a plain 404. */
export async function loadWatch(
  deps: Pick<GatewayDeps, 'redis' | 'config'>,
  req: Request,
  id: string,
): Promise<{ store: WatchStore; watch: WatchRecord }> {
  const store = watchStoreOf(deps);
  const watch = await withRedis(deps.redis, () => store.get(id));
  const owner = watchOwnerOf(req, deps);
  if (!watch || (owner !== undefined && watch.owner !== owner)) throw new NotFound(`Watch ${id} was not found`);
  return { store, watch };
}
