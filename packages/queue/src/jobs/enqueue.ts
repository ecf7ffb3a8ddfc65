import { randomUUID } from 'node:crypto';
import type { Job, JobsOptions } from 'bullmq';
import {
  JOB_KINDS,
  jobPayload,
  type JobFields,
  type JobName,
  type JobPayload,
  type JobResult,
  type PayloadOptions,
} from '@sitelens/contracts';
import type { ParseGate, ScreenshotGate } from '../queues';

/** Each queue's gate (fair share): every job is added through one. A process passes the ones it adds to. */
export interface JobGates {
  screenshot?: Pick<ScreenshotGate, 'add'>;
  parse?: Pick<ParseGate, 'add'>;
}

/** A job as added: its payload and result typed by its name. */
export type TypedJob<N extends JobName> = Job<JobPayload<N>, JobResult<N>, N>;

/**
 * BullMQ options by kind, over the queue defaults. Scrape and parse run once: a scrape's client
 * is waiting on a short timeout, and a parse retries per model call so the count stays exact. A
 * scrape is read once by the request that made it, so it is kept only briefly.
 */
const KIND_OPTIONS: { readonly [N in JobName]?: JobsOptions } = {
  scrape: { attempts: 1, removeOnComplete: { age: 300 }, removeOnFail: { age: 300 } },
  parse: { attempts: 1 },
};

export interface EnqueueOptions extends PayloadOptions {
  /** A random UUID unless given. */
  jobId?: string;
}

/**
 * Adds a job of any kind: builds its envelope (time budget, accepted time, owner) from the job map
 * and adds it to its queue through that queue's fair share.
 */
export async function enqueue<N extends JobName>(
  gates: JobGates,
  name: N,
  fields: JobFields<N>,
  options: EnqueueOptions = {},
): Promise<TypedJob<N>> {
  const { jobId, ...payloadOptions } = options;
  return addJob(gates, name, jobPayload(name, fields, payloadOptions), jobId);
}

/** Adds a job whose payload was built ahead (`jobPayload`), for callers that need it first. */
export async function addJob<N extends JobName>(
  gates: JobGates,
  name: N,
  payload: JobPayload<N>,
  jobId: string = randomUUID(),
): Promise<TypedJob<N>> {
  const jobOptions = { ...KIND_OPTIONS[name], jobId };
  // The map ties each name to its queue; TypeScript cannot follow that through the union.
  const queue = JOB_KINDS[name].queue;
  const gate = gates[queue];
  if (!gate) throw new Error(`No gate for the ${queue} queue`);
  const job =
    queue === 'screenshot'
      ? await (gate as Pick<ScreenshotGate, 'add'>).add('screenshot', payload as JobPayload<'screenshot'>, jobOptions)
      : await (gate as Pick<ParseGate, 'add'>).add(
          name as Exclude<JobName, 'screenshot'>,
          payload as JobPayload<Exclude<JobName, 'screenshot'>>,
          jobOptions,
        );
  return job as unknown as TypedJob<N>;
}
