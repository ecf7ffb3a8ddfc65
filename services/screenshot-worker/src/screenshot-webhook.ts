import type { Job } from 'bullmq';
import type { Config } from '@sitelens/config';
import { decodeJobError, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import { urlPolicyOf } from '@sitelens/egress';
import { sendJobWebhook, type WebhookSecrets } from '@sitelens/queue';
import { SIGNED_URL_TTL_SECONDS, type BlobStore } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';

export interface ScreenshotWebhookDeps {
  config: Config;
  store: BlobStore;
  secrets: WebhookSecrets;
  logger: Logger;
}

type ScreenshotJob = Pick<Job<ScreenshotJobPayload, ScreenshotJobResult>, 'id' | 'data' | 'getState'>;

/**
 * A screenshot's `webhook_url`: once BullMQ has recorded the job's end, its result is POSTed
 * (`{job_id, type, status, url, screenshot, expires_at, metadata}`, or `error` and `code` when it
 * failed), signed with the job owner's secret like the crawl's, the image URL freshly signed for
 * 15 minutes. Runs in the background and never throws; delivery retries on its own.
 */
export function notifyScreenshotWebhook(
  job: ScreenshotJob,
  outcome: { status: 'completed'; result: ScreenshotJobResult } | { status: 'failed'; failedReason: string | undefined },
  deps: ScreenshotWebhookDeps,
): void {
  const { request, origin, owner } = job.data;
  const url = request.webhook_url;
  if (!url || !origin) return;
  const logger = deps.logger.child({ jobId: job.id });
  sendJobWebhook(
    job,
    outcome.status,
    {
      kind: 'screenshot',
      url,
      headers: request.webhook_headers,
      owner,
      async payload() {
        const base = { job_id: job.id, type: 'screenshot', status: outcome.status, url: request.url };
        if (outcome.status === 'failed') {
          const { code, message } = decodeJobError(outcome.failedReason);
          return { ...base, error: message, code };
        }
        const signed = await deps.store.signedUrl(outcome.result.key, { ttlSeconds: SIGNED_URL_TTL_SECONDS, origin });
        return { ...base, screenshot: signed.url, expires_at: new Date(signed.expiresAt).toISOString(), metadata: outcome.result.metadata };
      },
    },
    { secrets: deps.secrets, urlPolicy: urlPolicyOf(deps.config, logger), logger },
  );
}

/** Whether a failed attempt was the job's last (BullMQ retries only retryable errors, up to `attempts`). */
export function isFinalFailure(job: Pick<Job, 'attemptsMade' | 'opts'>, error: Error): boolean {
  return error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}
