import type { JobType } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import { renderCrawlJob } from './crawl-view';
import type { JobRenderer } from './job-renderer';
import { viewScreenshotJob, type ScreenshotJob } from './screenshot-view';

const renderScreenshot: JobRenderer = async (job, state, deps, origin) => {
  const view = await viewScreenshotJob(job as ScreenshotJob, state, deps, origin);
  if (view.status === 'completed') {
    return { success: true, status: 'completed', data: { url: view.url, screenshot: view.screenshot, metadata: view.metadata } };
  }
  if (view.status === 'failed') return { success: false, status: 'failed', error: view.error, code: view.code };
  return { success: true, status: 'processing' };
};

/**
 * Default: the public state, with the job's progress while running and its result (from the blob
 * store when the job saved it there) when done.
 */
export const renderGenericJob: JobRenderer = async (job, state, deps) => {
  const view = publicStateOf(job, state, Date.now(), deps.config.jobQueueTimeoutMs);
  if (view.status === 'completed') return { success: true, status: 'completed', data: await loadJobResult(deps.store, view.result) };
  if (view.status === 'failed') return { success: false, status: 'failed', error: view.error, code: view.code };
  return { success: true, status: 'processing', data: view.progress && typeof view.progress === 'object' ? view.progress : undefined };
};

export const JOB_RENDERERS: Partial<Record<JobType, JobRenderer>> = {
  screenshot: renderScreenshot,
  crawl: renderCrawlJob,
};
