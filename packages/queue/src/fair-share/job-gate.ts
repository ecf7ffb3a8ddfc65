import { DelayedError, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobEnvelope, QueueName } from '@sitelens/contracts';
import { JobSlots, PARK_RECHECK_MS, parkedWakeMs, slotOwnerOf, type SlotDecision, type SlotOwner } from './job-slots';

/** What fair share needs of a queue: adding jobs and reading them to promote them. */
export interface GatedQueue<D, R, N extends string> {
  add(name: N, data: D, options?: JobsOptions): Promise<Job<D, R, N>>;
  getJob(id: string): Promise<Job<D, R, N> | undefined>;
}

/**
 * Fair share on BullMQ: a parked job is a delayed job (in the queue's `delayed` set, not its `wait`
 * list, so no worker holds it and KEDA does not count it). When a slot is handed to it, it is
 * promoted to `wait`; if that promotion is ever lost it wakes by itself after PARK_RECHECK_MS.
 */
export class JobGate<D extends JobEnvelope, R, N extends string> {
  constructor(
    readonly slots: JobSlots,
    readonly queue: GatedQueue<D, R, N>,
    private readonly recheckMs = PARK_RECHECK_MS,
  ) {}

  /**
   * Adds a job. A capped owner's job is added parked (delayed) first and promoted once it holds a
   * slot, so a slot is never handed to a job that does not exist yet.
   */
  async add(name: N, data: D, options: JobsOptions & { jobId: string }): Promise<Job<D, R, N>> {
    const slot = slotOwnerOf(data);
    if (!slot) return this.queue.add(name, data, options);
    const job = await this.queue.add(name, data, { ...options, delay: this.recheckMs });
    const decision = await this.slots.admit(slot, options.jobId);
    await this.settle(slot, job, decision);
    const sleepMs = parkedWakeMs(decision.place, slot.cap, this.recheckMs);
    if (!decision.admitted && sleepMs > this.recheckMs) await job.changeDelay(sleepMs).catch(() => undefined);
    return job;
  }

  /**
   * Runs a picked-up job in its owner's slot: renews the lease while it runs, gives it back at the
   * end (however it ends) and promotes the parked jobs it frees. A job over its owner's cap is
   * parked again without running (BullMQ's DelayedError: no attempt is spent).
   */
  async run<T>(job: Job<D, R, N>, token: string | undefined, work: () => Promise<T>): Promise<T> {
    const slot = slotOwnerOf(job.data);
    const id = job.id;
    if (!slot || id === undefined) return work();
    const decision = await this.slots.admit(slot, id);
    await this.promote(slot, decision.handed);
    if (!decision.admitted) {
      await job.moveToDelayed(Date.now() + parkedWakeMs(decision.place, slot.cap, this.recheckMs), token);
      // A slot handed over while the job was still active could not promote it; ask again now.
      const again = await this.slots.admit(slot, id);
      await this.settle(slot, job, again);
      throw new DelayedError();
    }
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        renewing = this.slots.renew(slot, id).catch(() => undefined);
      },
      Math.max(1_000, Math.floor(this.slots.leaseMs / 3)),
    );
    timer.unref();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      await renewing;
      await this.end(slot, id);
    }
  }

  /** Gives back the slot or parked place of a job that ends without running (past its deadline). */
  async forget(job: Pick<Job<D, R, N>, 'id' | 'data'>): Promise<void> {
    const slot = slotOwnerOf(job.data);
    if (slot && job.id !== undefined) await this.end(slot, job.id);
  }

  /** Gives back a job's slot or parked place (a job that ended outside `run`, or was removed). */
  async end(slot: SlotOwner, jobId: string): Promise<void> {
    const decision = await this.slots.release(slot, jobId).catch(() => undefined);
    if (decision) await this.promote(slot, decision.handed);
  }

  private async settle(slot: SlotOwner, job: Pick<Job, 'promote'>, decision: SlotDecision): Promise<void> {
    if (decision.admitted) await job.promote().catch(() => undefined);
    await this.promote(slot, decision.handed);
  }

  /**
   * Moves jobs that were just handed a slot from `delayed` to `wait`. A handed job that no longer
   * waits (removed, or failed past its deadline) gives its slot straight back.
   */
  private async promote(slot: SlotOwner, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const job = await this.queue.getJob(id).catch(() => undefined);
      const state = job ? await job.getState().catch(() => 'unknown') : 'unknown';
      if (job && state === 'delayed') await job.promote().catch(() => undefined);
      else if (state === 'unknown' || state === 'completed' || state === 'failed') await this.end(slot, id);
    }
  }
}

/** The gate of one queue, its slots under the queue's own key prefix. */
export function createJobGate<D extends JobEnvelope, R, N extends string>(
  redis: Redis,
  queue: GatedQueue<D, R, N>,
  options: { prefix: string; queue: QueueName; recheckMs?: number },
): JobGate<D, R, N> {
  return new JobGate(new JobSlots(redis, { prefix: options.prefix, queue: options.queue }), queue, options.recheckMs);
}
