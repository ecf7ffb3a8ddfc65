import type { Job, JobState } from 'bullmq';
import { SIGNED_URL_TTL_SECONDS } from '@sitelens/storage';
import type { ScreenshotJobPayload, ScreenshotJobResult } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';

export type ScreenshotJob = Job<ScreenshotJobPayload, ScreenshotJobResult>;

export type ScreenshotView =
  | { status: 'processing' }
  | { status: 'failed'; error: string; code: string }
  | {
      status: 'completed';
      /** Absent for rendered `html`. */
      url?: string;
      screenshot: string;
      expires_at: string;
      metadata: ScreenshotJobResult['metadata'];
    };

/** A screenshot job as clients see it; a completed one gets a fresh signed URL on every call. */
export async function viewScreenshotJob(
  job: ScreenshotJob,
  state: JobState | 'unknown',
  deps: Pick<GatewayDeps, 'store' | 'config'>,
  origin: string,
): Promise<ScreenshotView> {
  const view = publicStateOf(job, state, Date.now(), deps.config.jobQueueTimeoutMs);
  if (view.status === 'processing') return { status: 'processing' };
  if (view.status === 'failed') return { status: 'failed', error: view.error, code: view.code };
  const result = job.returnvalue;
  const signed = await deps.store.signedUrl(result.key, { ttlSeconds: SIGNED_URL_TTL_SECONDS, origin });
  return {
    status: 'completed',
    url: job.data.request.url,
    screenshot: signed.url,
    expires_at: new Date(signed.expiresAt).toISOString(),
    metadata: result.metadata,
  };
}
