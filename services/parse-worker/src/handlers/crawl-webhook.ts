import { urlPolicyOf } from '@sitelens/egress';
import type { Job } from 'bullmq';
import type { CrawlJobRequest, CrawlJobResult, ErrorCode } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { sendJobWebhook } from '@sitelens/queue';
import type { ParseWorkerContext } from '../context';

export type CrawlOutcome =
  { status: 'completed' | 'cancelled'; data: CrawlJobResult } | { status: 'failed'; error: string; code: ErrorCode };

/**
 * Sends the crawl's webhook (`{job_id, type, status, data}`, X-Signature) once the job's end is
 * recorded, signed with the secret of the job's owner (see sendJobWebhook). Runs in the
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
  sendJobWebhook(
    job,
    // A cancelled crawl's job completes (with the pages it had).
    outcome.status === 'cancelled' ? 'completed' : outcome.status,
    { kind: 'crawl', url, headers: request.webhook_headers, owner, payload: async () => ({ job_id: job.id, type: 'crawl', ...outcome }) },
    { secrets: context.webhookSecrets, urlPolicy: urlPolicyOf(context.config, logger), logger },
  );
}
