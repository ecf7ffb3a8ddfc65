import type { Job, Queue, QueueEvents } from 'bullmq';
import { AppError, decodeJobError, Unavailable } from '@sitelens/contracts';
import { followJob } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { withRedis } from './redis-guard';

export type AwaitedJob<R> = { finished: true; result: R } | { finished: false };

/** Where a job lives, for following it and for giving back its slot when it is dropped. */
export interface JobSource {
  queue: Pick<Queue, 'getJob'>;
  events: QueueEvents;
  gate: { forget(job: Pick<Job, 'id' | 'data'>): Promise<void> };
}

/**
 * For requests answered synchronously from a job (scrape, screenshot `stream: true`): follows the
 * job for up to `waitMs`, then returns its result, throws its error with the worker's code, or
 * reports that it is still unfinished (a job nobody picked up yet is removed, since no one will
 * read it, and its fair-share place is given back). Unknown failures keep a generic message:
 * worker internals stay in the worker's log. When `stopping` fires (the gateway is shutting down)
 * before the job ends, the request is answered 503 at once so the server can close; the job itself
 * carries on in its worker.
 */
export async function awaitJob<R>(
  deps: Pick<GatewayDeps, 'redis' | 'stopping'>,
  source: JobSource,
  jobId: string,
  waitMs: number,
): Promise<AwaitedJob<R>> {
  const { stopping } = deps;
  const follower = followJob<R>(source, jobId, { waitMs, signal: stopping, read: (work) => withRedis(deps.redis, work) });
  const end = await follower.done;
  if (end.state === 'completed') return { finished: true, result: end.result };
  if (end.state === 'failed') {
    const { code, message } = decodeJobError(end.failedReason);
    if (code === 'INTERNAL' || code === 'JOB_FAILED') throw new AppError('INTERNAL', 'Internal server error');
    throw new AppError(code, message);
  }
  const state = end.snapshot?.state;
  if (end.snapshot && (state === 'waiting' || state === 'prioritized' || state === 'delayed')) {
    const { job } = end.snapshot;
    await job.remove().catch(() => undefined);
    await source.gate.forget(job).catch(() => undefined);
  }
  if (stopping.aborted) {
    throw new Unavailable('The service is restarting; send the request again', { details: { job_id: jobId } });
  }
  return { finished: false };
}
