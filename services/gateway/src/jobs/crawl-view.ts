import type { CrawlData, CrawlProgress, CrawlStatistics, JobEnvelope } from '@sitelens/contracts';
import { isCrawlCancelRequested, publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import type { JobRenderer } from './job-renderer';

const NO_PAGES_YET: CrawlStatistics = { total_pages: 0, successful_pages: 0, failed_pages: 0 };

function statisticsOf(progress: unknown): CrawlStatistics {
  const statistics = (progress as Partial<CrawlProgress> | undefined)?.statistics;
  return statistics && typeof statistics === 'object' ? { ...NO_PAGES_YET, ...statistics } : NO_PAGES_YET;
}

/**
 * A crawl job in the lookup: the result (`{url, crawl_data, error_data, statistics}`, read from
 * the blob store) once completed, status `cancelled` when it was cancelled (the pages it had); while
 * it runs, `data` holds its start URL and the statistics so far, so clients polling the job see it
 * progress. A cancelled crawl that has not ended yet (it was waiting, or is stopping) shows as
 * cancelled at once, with the statistics so far.
 */
export const renderCrawlJob: JobRenderer = async (job, state, deps) => {
  const view = publicStateOf(job, state, Date.now(), deps.config.jobQueueTimeoutMs);
  if (view.status === 'completed') {
    const data = await loadJobResult<CrawlData>(deps.store, view.result);
    return { success: true, status: data.cancelled ? 'cancelled' : 'completed', data };
  }
  if (view.status === 'failed') return { success: false, status: 'failed', error: view.error, code: view.code };
  const { request } = job.data as JobEnvelope & { request?: { url?: string } };
  const data = { url: request?.url, statistics: statisticsOf(view.progress) };
  const cancelled = await isCrawlCancelRequested(deps.redis, deps.config.redis.prefix, String(job.id)).catch(() => false);
  return { success: true, status: cancelled ? 'cancelled' : 'processing', data };
};
