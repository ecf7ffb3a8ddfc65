import type { Job, JobState } from 'bullmq';
import type { JobType } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import type { GatewayDeps } from '../deps';
import { renderCrawlJob } from './crawl-view';
import { viewScreenshotJob, type ScreenshotJob } from './screenshot-view';

/**
 * The job lookup (`GET /v1/crawl/:id`) answers `{success, job_id, type, status, error?, data?}` for
 * any job. Each job type says how its `data` looks; types without a renderer show their result.
 */
export interface JobLookupBody {
  success: boolean;
  job_id: string;
  type: string;
  status: 'processing' | 'completed' | 'failed';
  error?: string;
  code?: string;
  data?: unknown;
}

export type JobRenderer = (
  job: Job,
  state: JobState | 'unknown',
  deps: GatewayDeps,
  origin: string,
) => Promise<Omit<JobLookupBody, 'job_id' | 'type'>>;

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
