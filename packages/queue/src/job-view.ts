import type { Job, JobState, Queue } from 'bullmq';
import { JOB_DEADLINE_MARGIN_SECONDS, publicJobError, type ErrorCode, type JobEnvelope } from '@sitelens/contracts';

/** What a client may learn of a job, whatever its queue: the three public states. */
export type PublicJobState =
  | { status: 'processing'; progress: unknown }
  | { status: 'completed'; result: unknown }
  | { status: 'failed'; code: ErrorCode; error: string };

/** Deadline of a job: accepted time + its own timeout + margin + a grace for waiting in the queue. */
export function jobDeadline(envelope: JobEnvelope, queueGraceMs: number): number {
  return envelope.acceptedAt + queueGraceMs + (envelope.timeoutSeconds + JOB_DEADLINE_MARGIN_SECONDS) * 1000;
}

/**
 * The schedule tick (epoch ms) a job scheduler's job runs for; undefined for other jobs. BullMQ
 * names each tick's job `repeat:<scheduler id>:<tick ms>`.
 */
export function schedulerTickOf(job: Pick<Job, 'id' | 'repeatJobKey'>): number | undefined {
  if (!job.repeatJobKey) return undefined;
  const tick = /^repeat:.+:(\d+)$/.exec(job.id ?? '')?.[1];
  return tick === undefined ? undefined : Number(tick);
}

/**
 * The envelope a job's deadline is judged by. A job scheduler writes its template once, so every
 * tick's job carries the scheduler's creation time as `acceptedAt`; it counts as accepted at its
 * tick instead. Other jobs are judged by their own envelope.
 */
export function dueEnvelope(job: Pick<Job<JobEnvelope>, 'data' | 'id' | 'repeatJobKey'>): JobEnvelope {
  const tick = schedulerTickOf(job);
  return tick !== undefined && tick > job.data.acceptedAt ? { ...job.data, acceptedAt: tick } : job.data;
}

/**
 * Maps BullMQ's states to processing/completed/failed. A job still unfinished past its deadline is
 * reported failed (and the worker that picks it up late refuses it), so nothing is "processing"
 * forever even when every worker is gone.
 */
export function publicStateOf(job: Job, state: JobState | 'unknown', now: number, queueGraceMs: number): PublicJobState {
  if (state === 'completed') return { status: 'completed', result: job.returnvalue };
  if (state === 'failed') {
    const { code, message } = publicJobError(job.failedReason);
    return { status: 'failed', code, error: message };
  }
  const envelope = job.data as Partial<JobEnvelope>;
  if (typeof envelope.acceptedAt === 'number' && typeof envelope.timeoutSeconds === 'number') {
    if (now > jobDeadline(envelope as JobEnvelope, queueGraceMs)) {
      return { status: 'failed', code: 'JOB_TIMEOUT', error: 'The job did not finish in time' };
    }
  }
  return { status: 'processing', progress: job.progress };
}

/** A job with the state it was in when read. */
export interface JobSnapshot {
  job: Job;
  state: JobState | 'unknown';
}

/**
 * Reads a job and its state as one snapshot. The two reads can straddle the job's end: the job
 * loaded while active (no return value yet), the state read just after it completed. The job is
 * read again then, so a "completed" state always comes with its result.
 */
export async function readJob(queue: Pick<Queue, 'getJob'>, id: string): Promise<JobSnapshot | undefined> {
  const job = await queue.getJob(id);
  if (!job) return undefined;
  const state = await job.getState();
  if ((state === 'completed' || state === 'failed') && job.finishedOn === undefined) {
    const ended = await queue.getJob(id);
    return ended ? { job: ended, state } : undefined;
  }
  return { job, state };
}

/** Finds a job by id in any of the given queues. */
export async function findJob(queues: readonly Queue[], id: string): Promise<(JobSnapshot & { queue: Queue }) | undefined> {
  for (const queue of queues) {
    const snapshot = await readJob(queue, id);
    if (snapshot) return { queue, ...snapshot };
  }
  return undefined;
}
