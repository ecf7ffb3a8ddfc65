import { urlPolicyOf, deliverWebhook } from '@sitelens/egress';
import type { Job } from 'bullmq';
import type { CrawlJobRequest, CrawlJobResult, ErrorCode } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { whenJobState } from '@sitelens/queue';
import type { ParseWorkerContext } from '../context';

export type CrawlOutcome = { status: 'completed'; data: CrawlJobResult } | { status: 'failed'; error: string; code: ErrorCode };

/**
 * Sends the crawl's webhook (`{job_id, type, status, data}`, X-Signature) once the job's end is
 * recorded, signed with the secret of the job's owner (see WebhookSecrets), so a receiver that looks the job up on arrival sees it finished. Runs in the
 * background: the handler returns at once and the job completes; delivery retries on its own.
 */
export function notifyCrawlWebhook(
  job: Pick<Job, 'id' | 'getState'>,
  request: CrawlJobRequest,
  outcome: CrawlOutcome,
  context: Pick<ParseWorkerContext, 'config' | 'webhookSecrets'>,
  logger: Logger,
  owner: string | undefined,
): void {
  const url = request.webhook_url;
  if (!url) return;
  const payload = { job_id: job.id, type: 'crawl', ...outcome };
  void (async () => {
    await whenJobState(job, outcome.status);
    // The key's own secret, read now: a rotation since the job was queued applies.
    const secret = await context.webhookSecrets.secretFor(owner);
    if (secret === undefined) {
      logger.warn('crawl webhook not sent: its API key has no webhook signing secret');
      return;
    }
    const result = await deliverWebhook(
      { url, payload, headers: request.webhook_headers, secret },
      { ...urlPolicyOf(context.config, logger), logger },
    );
    if (result.delivered) logger.info({ attempts: result.attempts, status: result.status }, 'crawl webhook delivered');
    else logger.warn({ attempts: result.attempts, status: result.status, err: result.error }, 'crawl webhook not delivered');
  })().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'crawl webhook failed'));
}
