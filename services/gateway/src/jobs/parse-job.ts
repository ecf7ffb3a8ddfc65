import { parseCancelKey, type ParseJobPayload } from '@sitelens/contracts';
import { addJob } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { withRedis } from './redis-guard';

/** A parse about to be queued: its payload is built first, since following it starts before it is added. */
export interface ParseJobSpec {
  jobId: string;
  payload: ParseJobPayload;
}

/** Adds the job (one attempt only: retries happen per model call, so their count stays exact). */
export async function enqueueParse(deps: GatewayDeps, spec: ParseJobSpec): Promise<void> {
  await withRedis(deps.redis, () => addJob(deps.gates, 'parse', spec.payload, spec.jobId));
}

/**
 * Stops a parse whose client went away: a job still waiting is removed; a running one sees the
 * cancel key within a poll and aborts its fetches and model calls. Best effort, never throws.
 */
export async function cancelParse(deps: GatewayDeps, jobId: string): Promise<void> {
  const key = parseCancelKey(deps.config.redis.prefix, jobId);
  const ttlSeconds = Math.max(60, Math.round(deps.config.jobRetentionMs / 1000));
  await deps.redis.set(key, '1', 'EX', ttlSeconds).catch(() => undefined);
  const job = await deps.queues.parse.getJob(jobId).catch(() => undefined);
  if (!job) return;
  // Refused while a worker holds the job's lock; the key stops it then (and its worker gives back
  // its slot). A job removed before it ran gives back its fair-share place here.
  const removed = await job.remove().then(
    () => true,
    () => false,
  );
  if (removed) await deps.gates.parse.forget(job).catch(() => undefined);
}
