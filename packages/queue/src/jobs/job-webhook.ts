import type { Job } from 'bullmq';
import { deliverWebhook, type UrlCheckOptions } from '@sitelens/egress';
import type { Logger } from '@sitelens/telemetry';
import type { WebhookSecrets } from '../webhook-secrets';
import { whenJobState } from './job-state';

export interface JobWebhook {
  /** The job's kind, as the log lines name it (`crawl`, `screenshot`). */
  kind: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** The API key id that owns the job: its secret signs the body. */
  owner: string | undefined;
  /** The body, built once the job's end is recorded and a secret is known. */
  payload(): Promise<unknown>;
  /** Waited for before sending (the job's progress events, so the end comes last). */
  after?: Promise<unknown>;
}

export interface JobWebhookDeps {
  secrets: WebhookSecrets;
  /** The URL policy the receiver must pass (hosted mode: public addresses and EGRESS_ALLOW). */
  urlPolicy: UrlCheckOptions;
  logger: Logger;
}

/**
 * Sends a job's webhook (X-Signature) once BullMQ has recorded its end, so a receiver that looks
 * the job up on arrival sees it finished, signed with the secret of the job's owner read now (a
 * rotation since the job was queued applies; see WebhookSecrets). Runs in the background and never
 * throws; delivery retries on its own.
 */
export function sendJobWebhook(
  job: Pick<Job, 'getState'>,
  status: 'completed' | 'failed',
  webhook: JobWebhook,
  deps: JobWebhookDeps,
): void {
  const { kind } = webhook;
  const { logger } = deps;
  void (async () => {
    await whenJobState(job, status);
    await webhook.after?.catch(() => undefined);
    const secret = await deps.secrets.secretFor(webhook.owner);
    if (secret === undefined) {
      logger.warn(`${kind} webhook not sent: its API key has no webhook signing secret`);
      return;
    }
    const result = await deliverWebhook(
      { url: webhook.url, payload: await webhook.payload(), headers: webhook.headers, secret },
      { ...deps.urlPolicy, logger },
    );
    if (result.delivered) logger.info({ attempts: result.attempts, status: result.status }, `${kind} webhook delivered`);
    else logger.warn({ attempts: result.attempts, status: result.status, err: result.error }, `${kind} webhook not delivered`);
  })().catch((error: unknown) => logger.warn({ err: (error as Error).message }, `${kind} webhook failed`));
}
