/**
 * One watch check: look at the page (and take its screenshot), compare with the last snapshot,
 * store the result at the head of the bounded history, then notify.
 */
import { randomUUID } from 'node:crypto';
import {
  TimeoutError,
  WATCH_LIMITS,
  isAppError,
  type WatchJobResult,
  type WatchRecord,
  type WatchResultRecord,
  type WatchTrigger,
} from '@sitelens/contracts';
import type { QueueEvents } from 'bullmq';
import type { ScreenshotGate } from '@sitelens/queue';
import type { WatchSnapshot, WatchStore } from '@sitelens/watch';
import type { BlobStore } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';
import type { WebDeps } from '@sitelens/web';
import { captureWatchImage, type CapturedImage } from './capture-image';
import { compareSnapshots } from './compare';
import { notifyWatch, type NotifyDeps } from './notify';
import { observePage } from './observe';

export interface CheckDeps {
  store: WatchStore;
  blobs: BlobStore;
  web: WebDeps;
  screenshotGate: ScreenshotGate;
  screenshotEvents: QueueEvents;
  notify: NotifyDeps;
  /** Hosted mode: whether watch mail may go to the watch's address (it may send the confirmation request). */
  mayMail?: (watch: WatchRecord) => Promise<boolean>;
  logger: Logger;
}

export interface CheckRun {
  trigger: WatchTrigger;
  /** Epoch ms of the schedule tick (scheduled checks). */
  scheduledFor?: number;
  /** False on the job's last attempt: a retryable failure is then recorded instead of thrown. */
  mayRetry: boolean;
}

/** Bound of fetching (or rendering) the page itself; the whole check has checkTimeoutSeconds. */
const PAGE_TIMEOUT_MS = 30_000;

function bounded(text: string): { text: string; truncated: boolean } {
  return text.length > WATCH_LIMITS.maxResultChars
    ? { text: text.slice(0, WATCH_LIMITS.maxResultChars), truncated: true }
    : { text, truncated: false };
}

function imageFields(image: CapturedImage | undefined): Pick<WatchResultRecord, 'image_key' | 'image_error'> {
  if (!image) return {};
  return 'key' in image ? { image_key: image.key } : { image_error: image.error };
}

async function deleteImages(
  results: readonly Pick<WatchResultRecord, 'image_key'>[],
  deps: Pick<CheckDeps, 'blobs' | 'logger'>,
): Promise<void> {
  for (const { image_key: key } of results) {
    if (key)
      await deps.blobs
        .delete(key)
        .catch((error: unknown) => deps.logger.warn({ err: String(error), key }, 'could not delete a watch image'));
  }
}

/** The check's own outcome, before anything is stored. Throws only what a retry may fix. */
async function check(
  watch: WatchRecord,
  run: CheckRun,
  deps: CheckDeps,
  base: Pick<WatchResultRecord, 'id' | 'executed_at' | 'trigger' | 'scheduled_for'>,
) {
  const signal = AbortSignal.timeout(WATCH_LIMITS.checkTimeoutSeconds * 1000);
  const imageTask = watch.include_image
    ? captureWatchImage(watch, { gate: deps.screenshotGate, events: deps.screenshotEvents }, signal)
    : Promise.resolve(undefined);
  try {
    const observed = await observePage(watch, deps.web, { timeoutMs: PAGE_TIMEOUT_MS, signal });
    const image = await imageTask;
    const comparison = compareSnapshots(await deps.store.snapshot(watch.id), observed.snapshot);
    const content = bounded(observed.snapshot.content);
    const result: WatchResultRecord = {
      ...base,
      status: 'completed',
      ...comparison,
      content_hash: observed.snapshot.hash,
      content: content.text,
      ...(content.truncated ? { content_truncated: true } : {}),
      ...(observed.html === undefined ? {} : { html_content: bounded(observed.html).text }),
      ...imageFields(image),
    };
    return { result, snapshot: observed.snapshot as WatchSnapshot | undefined };
  } catch (caught) {
    const error = signal.aborted
      ? new TimeoutError(`The check of ${watch.url} took longer than ${WATCH_LIMITS.checkTimeoutSeconds} s`)
      : caught;
    const image = await imageTask.catch(() => undefined);
    if (run.mayRetry && isAppError(error) && error.retryable) {
      await deleteImages([imageFields(image)], deps);
      throw error;
    }
    if (!isAppError(error)) deps.logger.error({ err: error }, 'watch check failed unexpectedly');
    const result: WatchResultRecord = {
      ...base,
      status: 'failed',
      has_changed: false,
      change_type: null,
      content_hash: null,
      content: '',
      error: isAppError(error) ? error.message : 'The check failed',
      code: isAppError(error) ? error.code : 'INTERNAL',
      ...imageFields(image),
    };
    return { result, snapshot: undefined };
  }
}

function resultBase(
  run: Pick<CheckRun, 'trigger' | 'scheduledFor'>,
): Pick<WatchResultRecord, 'id' | 'executed_at' | 'trigger' | 'scheduled_for'> {
  return {
    id: randomUUID(),
    executed_at: new Date().toISOString(),
    trigger: run.trigger,
    ...(run.scheduledFor === undefined ? {} : { scheduled_for: new Date(run.scheduledFor).toISOString() }),
  };
}

/** A check that did not run (the key's quota was spent): a result saying why, nothing else touched, no notification. */
export async function recordSkippedCheck(
  watch: WatchRecord,
  run: Pick<CheckRun, 'trigger' | 'scheduledFor'>,
  reason: string,
  deps: Pick<CheckDeps, 'store' | 'blobs' | 'logger'>,
): Promise<WatchJobResult> {
  const result: WatchResultRecord = {
    ...resultBase(run),
    status: 'skipped',
    has_changed: false,
    change_type: null,
    content_hash: null,
    content: '',
    error: reason,
    code: 'RATE_LIMITED',
  };
  const dropped = await deps.store.recordResult(watch.id, result);
  if (dropped === undefined) return { watchId: watch.id, skipped: 'deleted' };
  await deleteImages(dropped, deps);
  deps.logger.info({ watchId: watch.id }, 'watch check skipped: quota spent');
  return { watchId: watch.id, resultId: result.id, skipped: 'quota' };
}

export async function runWatchCheck(watch: WatchRecord, run: CheckRun, deps: CheckDeps): Promise<WatchJobResult> {
  const base = resultBase(run);
  const executedAt = base.executed_at;
  const { result, snapshot } = await check(watch, run, deps, base);
  const dropped = await deps.store.recordResult(watch.id, result, {
    snapshot,
    fields: { last_check: executedAt, ...(result.has_changed ? { last_change: executedAt } : {}) },
  });
  if (dropped === undefined) {
    // Deleted while the check ran: keep nothing of it.
    await deleteImages([result], deps);
    return { watchId: watch.id, skipped: 'deleted' };
  }
  await deleteImages(dropped, deps);
  deps.logger.info({ watchId: watch.id, status: result.status, changeType: result.change_type }, 'watch checked');
  const mailAllowed = deps.mayMail ? await deps.mayMail(watch) : true;
  const notifications = await notifyWatch(mailAllowed ? watch : { ...watch, notify_email: undefined }, result, deps.notify);
  if (notifications.webhook?.delivered || notifications.email?.sent) {
    await deps.store.update(watch.id, { last_notification: new Date().toISOString() });
  }
  return { watchId: watch.id, resultId: result.id, has_changed: result.has_changed, change_type: result.change_type, notifications };
}
