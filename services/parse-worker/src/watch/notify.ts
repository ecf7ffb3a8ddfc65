/**
 * Tells the watch's owner about a check, per notification_preference: every run (all_runs) or
 * only changes (changes_only). The webhook is signed like the crawl's (X-Signature: HMAC of the
 * body, with the secret of the watch's owner, see WebhookSecrets) and retried with doubling backoff; e-mail goes out only when SMTP is configured.
 */
import { errorMessage, type WatchNotificationOutcome, type WatchRecord, type WatchResultRecord } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import { deliverWebhook, type UrlCheckOptions, type WebhookOptions } from '@sitelens/egress';
import type { WatchMailer } from './mailer';

export interface NotifyDeps {
  /** The signing secret of a watch's owner; undefined: its webhook is not sent. */
  webhookSecretFor(owner: string | undefined): Promise<string | undefined>;
  /** The URL policy the receiver must pass (hosted mode: public addresses and EGRESS_ALLOW). */
  urlPolicy: UrlCheckOptions;
  mailer?: WatchMailer;
  logger: Logger;
  /** Retry tuning (tests shorten it). */
  webhook?: Pick<WebhookOptions, 'attempts' | 'baseDelayMs' | 'timeoutMs'>;
}

export type WatchEvent = 'watch.changed' | 'watch.checked' | 'watch.failed';

export function eventOf(result: WatchResultRecord): WatchEvent {
  if (result.status === 'failed') return 'watch.failed';
  return result.has_changed ? 'watch.changed' : 'watch.checked';
}

export function shouldNotify(watch: Pick<WatchRecord, 'notification_preference'>, result: WatchResultRecord): boolean {
  return watch.notification_preference === 'all_runs' || result.has_changed;
}

/** The webhook body: the result without storage internals or the (large) HTML. */
export function webhookPayload(watch: WatchRecord, result: WatchResultRecord) {
  const { image_key: imageKey, html_content: _html, ...shown } = result;
  return {
    type: 'watch',
    event: eventOf(result),
    watch_id: watch.id,
    url: watch.url,
    result: { ...shown, has_image: imageKey !== undefined },
  };
}

function emailText(watch: WatchRecord, result: WatchResultRecord): string {
  const lines = [`Watch ${watch.id} checked ${watch.url} at ${result.executed_at}.`];
  if (result.status === 'failed') lines.push(`The check failed: ${result.error ?? 'unknown error'}.`);
  else if (result.has_changed) lines.push(`Change: ${result.change_type}.`, '', result.diff ?? '');
  else lines.push(`No change (${result.change_type}).`);
  return lines.join('\n');
}

const NO_SECRET = 'its API key has no webhook signing secret';

async function signedDelivery(watch: WatchRecord, url: string, result: WatchResultRecord, deps: NotifyDeps) {
  const secret = await deps.webhookSecretFor(watch.owner);
  if (secret === undefined) return { delivered: false, attempts: 0, status: undefined, error: NO_SECRET };
  return deliverWebhook(
    { url, payload: webhookPayload(watch, result), secret },
    { ...deps.urlPolicy, logger: deps.logger, ...deps.webhook },
  );
}

export async function notifyWatch(watch: WatchRecord, result: WatchResultRecord, deps: NotifyDeps): Promise<WatchNotificationOutcome> {
  if (!shouldNotify(watch, result)) return {};
  const outcome: WatchNotificationOutcome = {};
  const tasks: Promise<void>[] = [];
  if (watch.webhook_url) {
    const url = watch.webhook_url;
    tasks.push(
      signedDelivery(watch, url, result, deps).then((delivery) => {
        outcome.webhook = { delivered: delivery.delivered, attempts: delivery.attempts, status: delivery.status, error: delivery.error };
        if (delivery.delivered) deps.logger.info({ attempts: delivery.attempts }, 'watch webhook delivered');
        else deps.logger.warn({ attempts: delivery.attempts, status: delivery.status, err: delivery.error }, 'watch webhook not delivered');
      }),
    );
  }
  if (watch.notify_email && deps.mailer) {
    const mail = {
      to: watch.notify_email,
      subject: `[Sitelens] ${eventOf(result).replace('watch.', '')}: ${watch.url}`,
      text: emailText(watch, result),
    };
    tasks.push(
      deps.mailer.send(mail).then(
        () => {
          outcome.email = { sent: true };
        },
        (error: unknown) => {
          outcome.email = { sent: false, error: errorMessage(error) };
          deps.logger.warn({ err: outcome.email.error }, 'watch e-mail not sent');
        },
      ),
    );
  }
  await Promise.all(tasks);
  return outcome;
}
