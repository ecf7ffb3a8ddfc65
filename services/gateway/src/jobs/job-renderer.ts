import type { Job, JobState } from 'bullmq';
import type { GatewayDeps } from '../deps';

/**
 * The job lookup (`GET /v1/crawl/:id`) answers `{success, job_id, type, status, error?, data?}` for
 * any job. Each job type says how its `data` looks; types without a renderer show their result.
 */
export interface JobLookupBody {
  success: boolean;
  job_id: string;
  type: string;
  /** `cancelled`: a crawl cancelled by DELETE /v1/crawl/<job_id>. */
  status: 'processing' | 'completed' | 'failed' | 'cancelled';
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
