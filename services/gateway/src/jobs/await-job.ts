import type { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError, decodeJobError } from '@sitelens/contracts';
import { waitForJobEnd } from './job-waiter';
import { withRedis } from './redis-guard';

export type AwaitedJob<R> = { finished: true; result: R } | { finished: false };

/**
 * For requests answered synchronously from a job (scrape): waits up to `waitMs` for the job to
 * end, then returns its result, throws its error with the worker's code, or reports that it is
 * still unfinished (a job nobody picked up yet is removed, since no one will read it).
 * Unknown failures keep a generic message: worker internals stay in the worker's log.
 */
export async function awaitJob<R>(
  queue: Pick<Queue, 'getJob'>,
  job: Job,
  events: QueueEvents | undefined,
  waitMs: number,
  redis: Redis,
): Promise<AwaitedJob<R>> {
  await waitForJobEnd(job, events, waitMs);
  const ended = await withRedis(redis, async () => (job.id === undefined ? undefined : queue.getJob(job.id)));
  const state = ended ? await withRedis(redis, () => ended.getState()) : 'unknown';
  if (ended && state === 'completed') return { finished: true, result: ended.returnvalue as R };
  if (ended && state === 'failed') {
    const { code, message } = decodeJobError(ended.failedReason);
    if (code === 'INTERNAL' || code === 'JOB_FAILED') throw new AppError('INTERNAL', 'Internal server error');
    throw new AppError(code, message);
  }
  if (state === 'waiting' || state === 'prioritized' || state === 'delayed') await ended?.remove().catch(() => undefined);
  return { finished: false };
}
