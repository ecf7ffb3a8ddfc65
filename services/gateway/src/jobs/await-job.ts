import type { Job, Queue, QueueEvents } from 'bullmq';
import { AppError, decodeJobError, Unavailable } from '@sitelens/contracts';
import { readJob } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { waitForJobEnd } from './job-waiter';
import { withRedis } from './redis-guard';

export type AwaitedJob<R> = { finished: true; result: R } | { finished: false };

/**
 * For requests answered synchronously from a job (scrape): waits up to `waitMs` for the job to
 * end, then returns its result, throws its error with the worker's code, or reports that it is
 * still unfinished (a job nobody picked up yet is removed, since no one will read it).
 * Unknown failures keep a generic message: worker internals stay in the worker's log.
 * When `stopping` fires (the gateway is shutting down) before the job ends, the request is
 * answered 503 at once so the server can close; the job itself carries on in its worker.
 */
export async function awaitJob<R>(
  deps: Pick<GatewayDeps, 'redis' | 'stopping'>,
  queue: Pick<Queue, 'getJob'>,
  job: Job,
  events: QueueEvents,
  waitMs: number,
): Promise<AwaitedJob<R>> {
  const { stopping } = deps;
  await waitForJobEnd(job, events, waitMs, stopping);
  const snapshot = job.id === undefined ? undefined : await withRedis(deps.redis, () => readJob(queue, job.id as string));
  const ended = snapshot?.job;
  const state = snapshot?.state ?? 'unknown';
  if (ended && state === 'completed') return { finished: true, result: ended.returnvalue as R };
  if (ended && state === 'failed') {
    const { code, message } = decodeJobError(ended.failedReason);
    if (code === 'INTERNAL' || code === 'JOB_FAILED') throw new AppError('INTERNAL', 'Internal server error');
    throw new AppError(code, message);
  }
  if (state === 'waiting' || state === 'prioritized' || state === 'delayed') await ended?.remove().catch(() => undefined);
  if (stopping.aborted) {
    throw new Unavailable('The service is restarting; send the request again', { details: { job_id: job.id } });
  }
  return { finished: false };
}
