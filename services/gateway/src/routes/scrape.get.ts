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
import { defineRoute, type RouteContext, type RouteResult } from '../http/route';
import { assertUrlAllowed } from '../http/url-policy';
import { awaitJob } from '../jobs/await-job';
import { readScrapeCache, scrapeCacheKey, writeScrapeCache } from '../jobs/scrape-cache';
import { withRedis } from '../jobs/redis-guard';

const SUMMARY =
  'Scrape one page: main content as markdown, html or text, or its links (format=links, with depth and max_links). ' +
  `Results are cached ${SCRAPE_LIMITS.cacheSeconds / 60} minutes; fresh=true skips the cache. ` +
  'Upstream 404 -> 404, timeout -> 408, robots.txt or a private address -> 403.';

const RESPONSES = { 200: { description: 'The page', schema: scrapeResponseSchema } };

/** GET and POST answer alike: one scrape, from the query or from the JSON body. */
async function scrape({ deps, req, log }: RouteContext<unknown, unknown, unknown>, request: ScrapeQuery): Promise<RouteResult> {
  assertUrlAllowed(deps.config, request.url);
  const linkMapPages = enforcePagesPerRequest(req, undefined, 'pages', SCRAPE_LIMITS.linkMapPages);
  // Hosted mode: one cache per key, so a hit never tells one tenant what another scraped.
  const owner = deps.config.mode === 'hosted' ? (req.auth?.keyId ?? '') : undefined;
  const cacheKey = scrapeCacheKey(deps.config.redis.prefix, request, linkMapPages, owner);
  if (!request.fresh) {
    const cached = await readScrapeCache(deps.redis, cacheKey);
    if (cached) return { status: 200, body: cached, headers: { 'x-cache': 'HIT' } };
  }

  const queue = deps.queues.parse;
  const job = await withRedis(deps.redis, () => enqueue(deps.gates, 'scrape', { request, linkMapPages }, { owner: jobOwnerOf(req) }));
  const waitMs = followDeadline('scrape', job.data) - Date.now();
  const source = { queue, events: deps.events.parse, gate: deps.gates.parse };
  const outcome = await awaitJob<ScrapeJobResult>(deps, source, String(job.id), waitMs);
  if (!outcome.finished) throw new TimeoutError(`Scraping ${request.url} took longer than the ${request.timeout} s timeout`);
  const result = await loadJobResult<ScrapeJobResult>(deps.store, outcome.result);
  await writeScrapeCache(deps.redis, cacheKey, result, log);
  return { status: 200, body: result, headers: { 'x-cache': 'MISS' } };
}

export const scrapeGet = defineRoute<undefined, ScrapeQuery>({
  method: 'get',
  paths: ['/v1/scrape', '/api/v1/scrape'],
  summary: `${SUMMARY} headers, cookies and http_auth are JSON text here; POST keeps them out of URLs and logs.`,
  tag: 'Scrape',
  query: scrapeQuery,
  responses: RESPONSES,
  handler: (ctx) => scrape(ctx, ctx.query),
});

export const scrapePost = defineRoute<ScrapeQuery>({
  method: 'post',
  paths: ['/v1/scrape', '/api/v1/scrape'],
  summary: `${SUMMARY} The same fields as GET, as a JSON body: the way to send headers, cookies and http_auth.`,
  tag: 'Scrape',
  body: scrapeQuery,
  responses: RESPONSES,
  handler: (ctx) => scrape(ctx, ctx.body),
});
