import type { Job } from 'bullmq';
import type { Config } from '@sitelens/config';
import { decodeJobError, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import { urlPolicyOf, deliverWebhook } from '@sitelens/egress';
import { whenJobState, type WebhookSecrets } from '@sitelens/queue';
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
  void (async () => {
    await whenJobState(job, outcome.status);
    const secret = await deps.secrets.secretFor(owner);
    if (secret === undefined) {
      logger.warn('screenshot webhook not sent: its API key has no webhook signing secret');
      return;
    }
    const base = { job_id: job.id, type: 'screenshot', status: outcome.status, url: request.url };
    let payload: Record<string, unknown>;
    if (outcome.status === 'completed') {
      const signed = await deps.store.signedUrl(outcome.result.key, { ttlSeconds: SIGNED_URL_TTL_SECONDS, origin });
      payload = {
        ...base,
        screenshot: signed.url,
        expires_at: new Date(signed.expiresAt).toISOString(),
        metadata: outcome.result.metadata,
      };
    } else {
      const { code, message } = decodeJobError(outcome.failedReason);
      payload = { ...base, error: message, code };
    }
    const result = await deliverWebhook(
      { url, payload, headers: request.webhook_headers, secret },
      { ...urlPolicyOf(deps.config, logger), logger },
    );
    if (result.delivered) logger.info({ attempts: result.attempts, status: result.status }, 'screenshot webhook delivered');
    else logger.warn({ attempts: result.attempts, status: result.status, err: result.error }, 'screenshot webhook not delivered');
  })().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'screenshot webhook failed'));
}

/** Whether a failed attempt was the job's last (BullMQ retries only retryable errors, up to `attempts`). */
export function isFinalFailure(job: Pick<Job, 'attemptsMade' | 'opts'>, error: Error): boolean {
  return error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
}
