import { DelayedError, WaitingError, type Job, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError, SlotQueue, type JobEnvelope, type QueueName } from '@sitelens/contracts';
import { createJobGate, type JobGate } from '../fair-share/job-gate';
import { slotOwnerOf } from '../fair-share/job-slots';
import { toJobFailure } from '../job-failure';
import { dueEnvelope, jobDeadline } from '../job-view';
import { closeHandle, createWorker, openQueue } from '../queues';

export interface JobWorkerSettings {
  /** The worker's own connection (waits for Redis forever). */
  connection: Redis;
  prefix: string;
  retentionMs: number;
  /** QUEUE_EVENTS_MAX_LEN: the queue handle the skeleton opens must keep the same stream cap. */
  eventsMaxLen?: number;
  /** Jobs this process runs at once. */
  concurrency: number;
  /**
   * Jobs picked up beyond `concurrency`, ready in this process for the next free slot (default 0):
   * a slot that frees starts its next job at once, instead of after the finished job's completion
   * round trip and the next pickup. Such a job waits at most until its deadline (then JOB_TIMEOUT,
   * as at pickup). BullMQ counts it active, not waiting.
   */
  prefetch?: number;
  /**
   * How long a job picked up ahead waits for a slot before it goes back to the front of the
   * waiting list, where an idle worker can take it (default 2 s); this process takes none ahead
   * again until one of its slots frees.
   */
  handBackMs?: number;
  /** JOB_QUEUE_TIMEOUT: a job that waited past its deadline is failed, not run. */
  queueTimeoutMs: number;
  now?: () => number;
  /** How long a job deferred to keep a slot for other keys waits before it is picked again. */
  deferMs?: number;
}

/** A deferred job comes back this soon: a slot of another key's job rarely takes less. */
const DEFER_MS = 1_000;
/** A job ahead goes back after this long without a slot: every page of its worker is slow then. */
const HAND_BACK_MS = 2_000;

export interface JobWorkerHooks<D, R, N extends string> {
  /** One job's work. Throw AppErrors: the skeleton turns them into BullMQ failures (retry or not). */
  process(job: Job<D, R, N>): Promise<R>;
  /** Wraps each run that reaches the work or its deadline (metrics). */
  measure?<T>(job: Job<D, R, N>, work: () => Promise<T>): Promise<T>;
}

export interface JobWorker<D extends JobEnvelope, R, N extends string> {
  worker: Worker<D, R, N>;
  gate: JobGate<D, R, N>;
  /** Closes what the skeleton opened besides the worker (its queue handle); bounded. */
  close(): Promise<void>;
}

/**
 * The one worker skeleton, used by both workers: a job past its deadline fails JOB_TIMEOUT without
 * running; any other runs in its key's fair-share slot (or is parked again when the key is at its
 * cap), and never in this process's last free slot when its key already holds the others (it
 * comes back after `deferMs`); the work's errors become BullMQ failures that say whether a retry
 * may help. With `prefetch`, that many more jobs are picked up and wait in the process for its
 * next free slot.
 */
export function startJobWorker<D extends JobEnvelope, R, N extends string>(
  queue: QueueName,
  settings: JobWorkerSettings,
  hooks: JobWorkerHooks<D, R, N>,
): JobWorker<D, R, N> {
  const { connection, prefix } = settings;
  const now = settings.now ?? Date.now;
  const measure = hooks.measure ?? ((_job, work) => work());
  // Its own handle on the queue, to promote the parked jobs a finished one frees.
  const own = openQueue<D, R, N>(queue, { connection, prefix, retentionMs: settings.retentionMs, eventsMaxLen: settings.eventsMaxLen });
  // It shares the worker's connection, whose problems the worker reports; unheard, they would throw.
  own.on('error', () => undefined);
  const gate = createJobGate<D, R, N>(connection, own, { prefix, queue });
  // One key never holds every slot of a process: with one worker of two slots, a free key's two
  // never-ending pages would otherwise leave nothing for anyone else until they time out.
  const perKey = Math.max(1, settings.concurrency - 1);
  const running = new Map<string, number>();
  const prefetch = settings.prefetch ?? 0;
  // The process's run slots; only jobs picked up ahead (prefetch) ever wait for one.
  const slots = new SlotQueue(settings.concurrency);

  const worker = createWorker<D, R, N>(
    queue,
    async (job, token) => {
      const deadline = jobDeadline(dueEnvelope(job), settings.queueTimeoutMs);
      const late = now() > deadline;
      const key = slotOwnerOf(job.data)?.owner;
      if (!late && key !== undefined && (running.get(key) ?? 0) >= perKey) {
        await job.moveToDelayed(now() + (settings.deferMs ?? DEFER_MS), token);
        throw new DelayedError();
      }
      if (key !== undefined) running.set(key, (running.get(key) ?? 0) + 1);
      try {
        return await runGated(job, token, deadline, late);
      } finally {
        if (key !== undefined) {
          const left = (running.get(key) ?? 1) - 1;
          if (left > 0) running.set(key, left);
          else running.delete(key);
        }
      }
    },
    { connection, prefix },
    { concurrency: settings.concurrency + prefetch },
  );

  function runGated(job: Job<D, R, N>, token: string | undefined, deadline: number, late: boolean): Promise<R> {
    const run = (tooLate?: string) =>
      measure(job, async () => {
        try {
          if (tooLate) throw new AppError('JOB_TIMEOUT', tooLate);
          return await hooks.process(job);
        } catch (error) {
          throw toJobFailure(error);
        }
      });
    if (late) return gate.forget(job).then(() => run('The job waited in the queue past its deadline'));
    return gate.run(job, token, () => inRunSlot(job, token, deadline, run));
  }

  /** Runs the job in one of the process's slots; only a job picked up ahead finds none free. */
  async function inRunSlot(
    job: Job<D, R, N>,
    token: string | undefined,
    deadline: number,
    run: (tooLate?: string) => Promise<R>,
  ): Promise<R> {
    if (!slots.tryAcquire()) {
      const stopped = await waitForSlot(deadline);
      if (stopped === 'hand back') return handBack(job, token);
      if (stopped === 'deadline') return run('The job waited for a free slot past its deadline');
    }
    try {
      return await run();
    } finally {
      slots.release();
      // A slot is free again: jobs may be taken ahead again.
      worker.concurrency = settings.concurrency + prefetch;
    }
  }

  /**
   * Waits for a slot until the job's deadline at most, and for `handBackMs` at most (another
   * worker may be idle while every page of this one is slow). 'slot' once the job holds one.
   */
  async function waitForSlot(deadline: number): Promise<'slot' | 'deadline' | 'hand back'> {
    const stop = new AbortController();
    const timers = [
      setTimeout(() => stop.abort('deadline'), Math.max(0, deadline - now())),
      setTimeout(() => stop.abort('hand back'), settings.handBackMs ?? HAND_BACK_MS),
    ];
    try {
      await slots.acquire(stop.signal);
      return 'slot';
    } catch (reason) {
      return reason === 'hand back' ? 'hand back' : 'deadline';
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  }

  /** Puts a job picked up ahead back at the front of the waiting list; none is taken ahead until a slot frees. */
  async function handBack(job: Job<D, R, N>, token: string | undefined): Promise<never> {
    worker.concurrency = settings.concurrency + slots.waiting;
    await job.moveToWait(token);
    throw new WaitingError();
  }

  return {
    worker,
    gate,
    close: () => closeHandle(own),
  };
}
