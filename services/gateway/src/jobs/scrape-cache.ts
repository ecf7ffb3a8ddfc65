import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SCRAPE_LIMITS, type ScrapeJobResult, type ScrapeQuery } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { withRedis } from './redis-guard';

/**
 * The short scrape result cache (SCRAPE_LIMITS.cacheSeconds; `fresh=true` skips it), under
 * QUEUE_PREFIX. It lives in the gateway, not the worker: a hit is answered without a queue round
 * trip or a worker slot, which is the point of a cache, and the gateway already talks to Redis on
 * every request, while the scrape worker stays stateless. Results are shared across API keys:
 * they are public pages, and the key holds everything that shapes the answer.
 */

/** Pages bigger than this are not cached (Redis memory is for queues first). */
const MAX_CACHED_BYTES = 2 * 1024 * 1024;

export function scrapeCacheKey(prefix: string, query: ScrapeQuery, linkMapPages: number): string {
  const shape = [query.url, query.format, query.include_html, query.render_js ?? 'auto', query.depth, query.max_links ?? 0, linkMapPages];
  return `${prefix}:scrape-cache:${createHash('sha256').update(JSON.stringify(shape)).digest('hex')}`;
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
