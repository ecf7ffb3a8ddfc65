import type { CrawlProgress, CrawlStatistics, JobEnvelope } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import type { JobRenderer } from './job-renderer';

const NO_PAGES_YET: CrawlStatistics = { total_pages: 0, successful_pages: 0, failed_pages: 0 };

function statisticsOf(progress: unknown): CrawlStatistics {
  const statistics = (progress as Partial<CrawlProgress> | undefined)?.statistics;
  return statistics && typeof statistics === 'object' ? { ...NO_PAGES_YET, ...statistics } : NO_PAGES_YET;
}

/**
 * A crawl job in the lookup: the result (`{url, crawl_data, error_data, statistics}`, read from
 * the blob store) once completed; while it runs, `data` holds its start URL and the statistics so far, so clients
 * polling the job see it progress.
 */
export const renderCrawlJob: JobRenderer = async (job, state, deps) => {
  const view = publicStateOf(job, state, Date.now(), deps.config.jobQueueTimeoutMs);
  if (view.status === 'completed') return { success: true, status: 'completed', data: await loadJobResult(deps.store, view.result) };
  if (view.status === 'failed') return { success: false, status: 'failed', error: view.error, code: view.code };
  const { request } = job.data as JobEnvelope & { request?: { url?: string } };
  return { success: true, status: 'processing', data: { url: request?.url, statistics: statisticsOf(view.progress) } };
};
