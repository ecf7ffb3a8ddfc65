import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SCRAPE_LIMITS, type ScrapeJobResult, type ScrapeQuery } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { withRedis } from './redis-guard';

/**
 * The short scrape result cache (SCRAPE_LIMITS.cacheSeconds; `fresh=true` skips it), under
 * QUEUE_PREFIX. It lives in the gateway, not the worker: a hit is answered without a queue round
 * trip or a worker slot, which is the point of a cache, and the gateway already talks to Redis on
 * every request, while the scrape worker stays stateless. In hosted mode each API key has its own
 * entries (`owner`, the key id): a shared entry would tell one tenant, by `X-Cache: HIT` and by
 * the answer's age, which pages another tenant scraped in the last minutes. A local instance has
 * one user and one shared cache.
 */

/** Pages bigger than this are not cached (Redis memory is for queues first). */
const MAX_CACHED_BYTES = 2 * 1024 * 1024;

/** `owner`: the calling key's id in hosted mode, undefined locally. */
export function scrapeCacheKey(prefix: string, query: ScrapeQuery, linkMapPages: number, owner: string | undefined): string {
  const shape = [
    query.url,
    query.format,
    query.include_html,
    query.render_js ?? 'auto',
    query.depth,
    query.max_links ?? 0,
    linkMapPages,
    // The page context changes what the page shows (a logged-in view, another language): only the
    // same context gets the same entry. Hashed with the rest, so no secret is readable in the key.
    query.headers ?? null,
    query.cookies ?? null,
    query.user_agent ?? null,
    query.http_auth ?? null,
    query.locale ?? null,
    query.block_cookies,
    query.wait_for_selectors ?? null,
    query.only_main_content,
    query.include_selectors ?? null,
    query.exclude_selectors ?? null,
  ];
  const hash = createHash('sha256').update(JSON.stringify(shape)).digest('hex');
  // The key id is hashed too: entries never name a key in Redis, and ids of any shape fit.
  const scope = owner === undefined ? 'shared' : createHash('sha256').update(owner).digest('hex').slice(0, 32);
  return `${prefix}:scrape-cache:${scope}:${hash}`;
}

export async function readScrapeCache(redis: Redis, key: string): Promise<ScrapeJobResult | undefined> {
  const cached = await withRedis(redis, () => redis.get(key));
  if (cached === null) return undefined;
  try {
    return JSON.parse(cached) as ScrapeJobResult;
  } catch {
    return undefined;
  }
}

/** Best effort: a failed write only costs the next request a scrape. */
export async function writeScrapeCache(redis: Redis, key: string, result: ScrapeJobResult, logger: Logger): Promise<void> {
  const text = JSON.stringify(result);
  if (Buffer.byteLength(text) > MAX_CACHED_BYTES) return;
  await withRedis(redis, () => redis.set(key, text, 'EX', SCRAPE_LIMITS.cacheSeconds)).catch((error: unknown) =>
    logger.debug({ err: (error as Error).message }, 'scrape cache write failed'),
  );
}
