import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { jobPayload, type ParseQueueJobName, type WatchJobPayload, type WatchRecord, type WatchTrigger } from '@sitelens/contracts';
import { addJob, type JobGates, type ParseQueue } from '@sitelens/queue';
import { watchSchedulerId } from './watch-keys';

type Scheduled = Pick<WatchRecord, 'frequency' | 'custom_frequency' | 'created_at'>;

/**
 * The cron pattern (UTC) a watch runs on. Named frequencies run at the minute (hour, weekday, day
 * of month) the watch was created, so watches spread over the hour instead of all firing at :00;
 * monthly ones made after the 28th run on the 28th.
 */
export function watchPattern(watch: Scheduled): string {
  const created = new Date(watch.created_at);
  const minute = created.getUTCMinutes();
  const hour = created.getUTCHours();
  switch (watch.frequency) {
    case 'hourly':
      return `${minute} * * * *`;
    case 'daily':
      return `${minute} ${hour} * * *`;
    case 'weekly':
      return `${minute} ${hour} * * ${created.getUTCDay()}`;
    case 'monthly':
      return `${minute} ${hour} ${Math.min(created.getUTCDate(), 28)} * *`;
    case 'custom':
      if (!watch.custom_frequency) throw new Error('A custom watch needs custom_frequency');
      return watch.custom_frequency;
  }
}

function payloadOf(watch: WatchRecord, trigger: WatchTrigger): WatchJobPayload {
  return jobPayload('watch', { watchId: watch.id, trigger }, { owner: { owner: watch.owner, plan: watch.plan } });
}

/**
 * Creates or replaces the watch's schedule: a BullMQ job scheduler on the parse queue. It lives in
 * Redis beside the queue, so it survives restarts of every process, and each tick becomes one job
 * with a deterministic id (`repeat:<scheduler>:<tick ms>`), so however many workers run, a tick
 * runs once.
 */
export async function scheduleWatch(queue: ParseQueue, watch: WatchRecord): Promise<void> {
  // BullMQ types a scheduler id like a job name; any string is a valid id.
  const schedulerId = watchSchedulerId(watch.id) as ParseQueueJobName;
  await queue.upsertJobScheduler(
    schedulerId,
    { pattern: watchPattern(watch), tz: 'UTC' },
    { name: 'watch', data: payloadOf(watch, 'schedule') },
  );
}

/** Removes the schedule and its pending tick. */
export async function unscheduleWatch(queue: ParseQueue, watchId: string): Promise<void> {
  await queue.removeJobScheduler(watchSchedulerId(watchId));
}

/** Epoch ms of the next scheduled check, when the watch has a schedule. */
export async function nextWatchCheck(queue: ParseQueue, watchId: string): Promise<number | undefined> {
  const scheduler = await queue.getJobScheduler(watchSchedulerId(watchId));
  return typeof scheduler?.next === 'number' ? scheduler.next : undefined;
}

/** Queues one check now (the baseline at create, or `POST /check`), within the owner's fair share. */
export async function enqueueWatchCheck(gates: JobGates, watch: WatchRecord, trigger: Exclude<WatchTrigger, 'schedule'>): Promise<Job> {
  return addJob(gates, 'watch', payloadOf(watch, trigger), `watch-${trigger}-${randomUUID()}`);
}
