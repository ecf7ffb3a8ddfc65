import { urlPolicyOf } from '@sitelens/egress';
import type { Job } from 'bullmq';
import type { CrawlJobRequest, CrawlJobResult, CrawlWebhookEvent, ErrorCode } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { JobEvents, sendJobWebhook } from '@sitelens/queue';
import type { ParseWorkerContext } from '../context';

export type CrawlOutcome =
  { status: 'completed' | 'cancelled'; data: CrawlJobResult } | { status: 'failed'; error: string; code: ErrorCode };

/** The events a crawl's webhook gets: the asked ones, or its end alone. */
export function crawlEventsOf(request: CrawlJobRequest): ReadonlySet<CrawlWebhookEvent> {
  if (!request.webhook_url) return new Set();
  return new Set(request.webhook_events ?? ['crawl.completed', 'crawl.failed']);
}

/** The stream of a crawl's progress events (started, page), when the request asks for any. */
export function crawlEventStream(
  request: CrawlJobRequest,
  context: Pick<ParseWorkerContext, 'config' | 'webhookSecrets'>,
  logger: Logger,
  owner: string | undefined,
): JobEvents | undefined {
  const events = crawlEventsOf(request);
  if (!request.webhook_url || !(events.has('crawl.started') || events.has('crawl.page'))) return undefined;
  return new JobEvents(
    { kind: 'crawl', url: request.webhook_url, headers: request.webhook_headers, owner },
    { secrets: context.webhookSecrets, urlPolicy: urlPolicyOf(context.config, logger), logger },
  );
}

/**
 * Sends the crawl's end webhook (`{event, job_id, type, status, data}`, X-Signature) once the
 * job's end is recorded and its progress events went out, signed with the secret of the job's
 * owner (see sendJobWebhook), when the request asks for that event. Runs in the background: the
 * handler returns at once and the job completes; delivery retries on its own.
 */
export function notifyCrawlWebhook(
  job: Pick<Job, 'id' | 'getState'>,
  request: CrawlJobRequest,
  outcome: CrawlOutcome,
  context: Pick<ParseWorkerContext, 'config' | 'webhookSecrets'>,
  logger: Logger,
  owner: string | undefined,
  after?: Promise<unknown>,
): void {
  const url = request.webhook_url;
  if (!url) return;
  const event: CrawlWebhookEvent = outcome.status === 'failed' ? 'crawl.failed' : 'crawl.completed';
  if (!crawlEventsOf(request).has(event)) return;
  sendJobWebhook(
    job,
    // A cancelled crawl's job completes (with the pages it had).
    outcome.status === 'cancelled' ? 'completed' : outcome.status,
    {
      kind: 'crawl',
      url,
      headers: request.webhook_headers,
      owner,
      after,
      payload: async () => ({ event, job_id: job.id, type: 'crawl', ...outcome }),
    },
    { secrets: context.webhookSecrets, urlPolicy: urlPolicyOf(context.config, logger), logger },
  );
}
