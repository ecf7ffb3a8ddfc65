import {
  SCRAPE_LIMITS,
  TimeoutError,
  followDeadline,
  scrapeQuery,
  scrapeResponseSchema,
  type ScrapeJobResult,
  type ScrapeQuery,
} from '@sitelens/contracts';
import { enqueue } from '@sitelens/queue';
import { enforcePagesPerRequest } from '../auth/plan-limits';
import { loadJobResult } from '@sitelens/storage';
import { jobOwnerOf } from '../auth/job-owner';
import { defineRoute } from '../http/route';
import { assertUrlAllowed } from '../http/url-policy';
import { awaitJob } from '../jobs/await-job';
import { readScrapeCache, scrapeCacheKey, writeScrapeCache } from '../jobs/scrape-cache';
import { withRedis } from '../jobs/redis-guard';

export const scrapeGet = defineRoute<undefined, ScrapeQuery>({
  method: 'get',
  paths: ['/v1/scrape', '/api/v1/scrape'],
  summary:
    'Scrape one page: main content as markdown, html or text, or its links (format=links, with depth and max_links). ' +
    `Results are cached ${SCRAPE_LIMITS.cacheSeconds / 60} minutes; fresh=true skips the cache. ` +
    'Upstream 404 -> 404, timeout -> 408, robots.txt or a private address -> 403.',
  tag: 'Scrape',
  query: scrapeQuery,
  responses: { 200: { description: 'The page', schema: scrapeResponseSchema } },
  async handler({ query, deps, req, log }) {
    assertUrlAllowed(deps.config, query.url);
    const linkMapPages = enforcePagesPerRequest(req, undefined, 'pages', SCRAPE_LIMITS.linkMapPages);
    // Hosted mode: one cache per key, so a hit never tells one tenant what another scraped.
    const owner = deps.config.mode === 'hosted' ? (req.auth?.keyId ?? '') : undefined;
    const cacheKey = scrapeCacheKey(deps.config.redis.prefix, query, linkMapPages, owner);
    if (!query.fresh) {
      const cached = await readScrapeCache(deps.redis, cacheKey);
      if (cached) return { status: 200, body: cached, headers: { 'x-cache': 'HIT' } };
    }

    const queue = deps.queues.parse;
    const job = await withRedis(deps.redis, () =>
      enqueue(deps.gates, 'scrape', { request: query, linkMapPages }, { owner: jobOwnerOf(req) }),
    );
    const waitMs = followDeadline('scrape', job.data) - Date.now();
    const source = { queue, events: deps.events.parse, gate: deps.gates.parse };
    const outcome = await awaitJob<ScrapeJobResult>(deps, source, String(job.id), waitMs);
    if (!outcome.finished) throw new TimeoutError(`Scraping ${query.url} took longer than the ${query.timeout} s timeout`);
    const result = await loadJobResult<ScrapeJobResult>(deps.store, outcome.result);
    await writeScrapeCache(deps.redis, cacheKey, result, log);
    return { status: 200, body: result, headers: { 'x-cache': 'MISS' } };
  },
});
