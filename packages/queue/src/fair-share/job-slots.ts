import type { Redis } from 'ioredis';
import { PLANS, type JobEnvelope, type PlanName, type QueueName } from '@sitelens/contracts';
import { ADMIT_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT } from './slot-scripts';

/** How long a slot is held without renewal: a crashed process's slots come back after this. */
export const SLOT_LEASE_MS = 30_000;
/**
 * A parked job is a delayed job: it wakes after this long even if no slot was handed to it (a
 * lost promotion, a crashed process), tries again and parks again, so none waits forever. Jobs
 * further back wake less often (`parkedWakeMs`): a slot is always handed to the front ones.
 */
export const PARK_RECHECK_MS = 30_000;
/** The longest a parked job sleeps between wakes (a job past its deadline is failed when it wakes). */
export const PARK_MAX_SLEEP_MS = 600_000;

/** How long a parked job sleeps: the recheck for the first `cap` in line, longer further back. */
export function parkedWakeMs(place: number | undefined, cap: number, recheckMs = PARK_RECHECK_MS): number {
  const tier = Math.floor((place ?? 0) / Math.max(1, cap));
  return Math.min(Math.max(recheckMs, PARK_MAX_SLEEP_MS), recheckMs * (1 + tier));
}
/** Parked entries outlive any job that may still run (queue timeout plus the longest budget). */
const PARKED_TTL_MS = 24 * 3_600_000;

/** Whose slots a job uses and how many that owner may hold; undefined when it is uncapped. */
export interface SlotOwner {
  owner: string;
  cap: number;
}

/** The owner and cap a job's envelope names: hosted jobs carry both; local ones neither. */
export function slotOwnerOf(envelope: Partial<Pick<JobEnvelope, 'owner' | 'plan'>>): SlotOwner | undefined {
  const { owner, plan } = envelope;
  if (owner === undefined || plan === undefined || !(plan in PLANS)) return undefined;
  return { owner, cap: PLANS[plan as PlanName].runningJobs };
}

export interface SlotDecision {
  admitted: boolean;
  /** The job's place among its owner's parked jobs (0 = next), when it was parked. */
  place?: number;
  /** Parked jobs of the same owner that were just given a slot: promote them. */
  handed: string[];
}

export interface JobSlotsOptions {
  prefix: string;
  queue: QueueName;
  leaseMs?: number;
  /** Tests drive lease expiry with their own clock. */
  now?: () => number;
}

/**
 * Per-key running-job slots of one queue (fair share). A key's jobs up to its plan's cap hold a
 * slot (a lease renewed while they run); the rest are parked in arrival order and handed a slot
 * as one ends. Only the accounting lives here; moving jobs between BullMQ states is the caller's.
 */
export class JobSlots {
  readonly leaseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly options: JobSlotsOptions,
  ) {
    this.leaseMs = options.leaseMs ?? SLOT_LEASE_MS;
    this.now = options.now ?? Date.now;
  }

  runningKey(owner: string): string {
    return `${this.options.prefix}:${this.options.queue}:slots:${owner}:running`;
  }

  parkedKey(owner: string): string {
    return `${this.options.prefix}:${this.options.queue}:slots:${owner}:parked`;
  }

  /** Takes a slot for the job (or keeps the one it holds), or parks it. */
  admit(slot: SlotOwner, jobId: string): Promise<SlotDecision> {
    return this.run(ADMIT_SCRIPT, slot, jobId);
  }

  /** Gives back the job's slot or parked place; free slots go to the oldest parked jobs. */
  release(slot: SlotOwner, jobId: string): Promise<SlotDecision> {
    return this.run(RELEASE_SCRIPT, slot, jobId);
  }

  /** Extends the lease of a running job's slot; false when the slot had already lapsed. */
  async renew(slot: SlotOwner, jobId: string): Promise<boolean> {
    const held = await this.redis.eval(RENEW_SCRIPT, 1, this.runningKey(slot.owner), jobId, this.now() + this.leaseMs, this.leaseMs * 2);
    return held === 1;
  }

  /** Job ids holding a slot now (expired leases excluded). */
  async running(owner: string): Promise<string[]> {
    return this.redis.zrangebyscore(this.runningKey(owner), `(${this.now()}`, '+inf');
  }

  /** Parked job ids, oldest first. */
  async parked(owner: string): Promise<string[]> {
    return this.redis.zrange(this.parkedKey(owner), 0, -1);
  }

  private async run(script: string, slot: SlotOwner, jobId: string): Promise<SlotDecision> {
    const reply = (await this.redis.eval(
      script,
      3,
      this.runningKey(slot.owner),
      this.parkedKey(slot.owner),
      `${this.parkedKey(slot.owner)}:arrivals`,
      jobId,
      slot.cap,
      this.now(),
      this.leaseMs,
      PARKED_TTL_MS,
    )) as [number, number, ...string[]];
    const [admitted, place, ...handed] = reply;
    return { admitted: admitted === 1, ...(place >= 0 ? { place } : {}), handed: handed.filter((id) => id !== jobId) };
  }
}
