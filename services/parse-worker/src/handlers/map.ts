import { MAP_LIMITS, TimeoutError, type MapJobRequest, type MapJobResult } from '@sitelens/contracts';
import { saveJobResult } from '@sitelens/storage';
import { mapSite } from '@sitelens/web';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from './job-handler';
import { jobRequest } from './job-request';

/**
 * `map` jobs: a site's URLs from its sitemaps and a link walk (see `mapSite`), as the POST /v1/map
 * body, saved to the blob store. The gateway waits for the answer, so the work stops at the job's
 * deadline (`acceptedAt` + its budget, queue time included); the walk ends earlier on its own
 * budget and answers with what it found.
 */
export function createMapHandler(context: ParseWorkerContext): ParseJobHandler<'map'> {
  return async (job, logger) => {
    const { acceptedAt, timeoutSeconds } = job.data;
    const request = jobRequest<MapJobRequest>(job.data, 'map');
    const budgetMs = acceptedAt + timeoutSeconds * 1000 - Date.now();
    const late = () => new TimeoutError(`Mapping ${request.url} took longer than ${timeoutSeconds} s`);
    if (budgetMs <= 0) throw late();
    const signal = AbortSignal.timeout(budgetMs);
    try {
      const found = await mapSite(
        {
          url: request.url,
          limit: request.limit,
          maxPages: request.max_pages,
          search: request.search,
          includeSubdomains: request.include_subdomains,
          sitemap: request.sitemap,
          includePatterns: request.include_patterns,
          excludePatterns: request.exclude_patterns,
          // Leave time for the answer within what the client waits.
          walkBudgetMs: Math.min(MAP_LIMITS.walkSeconds * 1000, Math.max(1_000, budgetMs - 5_000)),
          concurrency: Math.max(4, context.config.crawlConcurrency * 2),
          signal,
        },
        { ...context.web, logger },
      );
      const result: MapJobResult = { success: true, ...found };
      logger.info({ links: result.links.length, total: result.total }, 'map finished');
      return await saveJobResult(context.store, job.id, result);
    } catch (error) {
      if (signal.aborted) throw late();
      throw error;
    }
  };
}
