import { AppError, BadRequest, WATCH_LIMITS, type ParseQueuePayload, type WatchJobPayload, type WatchTrigger } from '@sitelens/contracts';
import { DailyQuota, isLastAttempt, schedulerTickOf } from '@sitelens/queue';
import { EmailConfirmations, WatchStore } from '@sitelens/watch';
import { urlPolicyOf } from '@sitelens/egress';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from './job-handler';
import { spendCheckQuota } from '../watch/check-quota';
import { mayMailWatchAddress } from '../watch/email-consent';
import { createWatchMailer } from '../watch/mailer';
import type { NotifyDeps } from '../watch/notify';
import { recordSkippedCheck, runWatchCheck } from '../watch/run-check';

const TRIGGERS: readonly WatchTrigger[] = ['create', 'schedule', 'manual'];

/** A check's lock outlives the check's own bound, so a crashed worker's lock still expires. */
const LOCK_MS = (WATCH_LIMITS.checkTimeoutSeconds + 60) * 1000;

function payloadOf(data: ParseQueuePayload): WatchJobPayload {
  if (typeof data.watchId !== 'string' || data.watchId === '') throw new BadRequest('The watch job names no watch');
  const trigger = TRIGGERS.find((name) => name === data.trigger) ?? 'manual';
  return { ...data, watchId: data.watchId, trigger };
}

export interface WatchHandlerOptions {
  /** Webhook retry tuning (tests shorten the backoff). */
  webhook?: NotifyDeps['webhook'];
}

/**
 * `watch` jobs: one check of one watch, from its schedule, its creation (the baseline) or
 * `POST /check`. The watch is read when the job runs, so a paused watch's pending tick does
 * nothing and a deleted one's is dropped. Checks of one watch never overlap (a Redis lock); one
 * that finds the lock taken is retried by BullMQ after a backoff.
 */
export function createWatchHandler(context: ParseWorkerContext, options: WatchHandlerOptions = {}): ParseJobHandler<'watch'> {
  const { redis, config } = context;
  const prefix = config.redis.prefix;
  const store = new WatchStore(redis, prefix);
  const mailer = createWatchMailer(config.smtp);
  const hosted = config.mode === 'hosted';
  // Hosted mode: checks spend the key's daily quota, and mail goes only to confirmed addresses.
  const quota = hosted ? { quota: new DailyQuota(redis, prefix), redis, prefix } : undefined;
  const confirmations = hosted ? new EmailConfirmations(redis, prefix) : undefined;
  return async (job, logger) => {
    const { watchId, trigger } = payloadOf(job.data);
    const watch = await store.get(watchId);
    if (!watch) return { watchId, skipped: 'deleted' };
    if (trigger === 'schedule' && watch.status === 'paused') return { watchId, skipped: 'paused' };
    const token = await store.lock(watchId, LOCK_MS);
    if (!token) throw new AppError('UNAVAILABLE', `Another check of watch ${watchId} is running`, { retryable: true });
    try {
      const scheduledFor = trigger === 'schedule' ? schedulerTickOf(job) : undefined;
      const refused = quota ? await spendCheckQuota(watch, { id: job.id ?? '', trigger }, quota) : undefined;
      if (refused) return await recordSkippedCheck(watch, { trigger, scheduledFor }, refused, { store, blobs: context.store, logger });
      return await runWatchCheck(
        watch,
        { trigger, scheduledFor, mayRetry: !isLastAttempt(job) },
        {
          store,
          blobs: context.store,
          web: { ...context.web, logger },
          screenshotGate: context.screenshotGate,
          screenshotEvents: context.screenshotEvents,
          notify: {
            webhookSecretFor: (owner) => context.webhookSecrets.secretFor(owner),
            urlPolicy: urlPolicyOf(context.config, logger),
            mailer,
            logger,
            webhook: options.webhook,
          },
          mayMail: confirmations && ((target) => mayMailWatchAddress(target, { confirmations, mailer, logger })),
          logger,
        },
      );
    } finally {
      await store.unlock(watchId, token).catch(() => undefined);
    }
  };
}
