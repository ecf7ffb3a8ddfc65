/**
 * Fair share's slot accounting against a real Redis: the cap holds under concurrent admissions,
 * ends hand slots to parked jobs in arrival order, and expired leases (a crashed worker) come back.
 * Lease expiry runs on an injected clock, never on sleeps.
 */
import type { Redis } from 'ioredis';
import { QUEUES } from '@sitelens/contracts';
import { JobSlots, PARK_MAX_SLEEP_MS, PARK_RECHECK_MS, createRedis, parkedWakeMs, slotOwnerOf, type SlotOwner } from '../src';
import { testRedisUrl, uniquePrefix } from '@sitelens/testkit';

describe('JobSlots', () => {
  let redis: Redis;
  let clock: number;
  let slots: JobSlots;
  const free: SlotOwner = { owner: 'key-free', cap: 2 };

  beforeAll(() => {
    redis = createRedis(testRedisUrl(), 'worker');
  });
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    clock = 1_000_000;
    slots = new JobSlots(redis, { prefix: uniquePrefix('slots'), queue: QUEUES.screenshot, leaseMs: 30_000, now: () => clock });
  });

  it('admits at most the cap of many concurrent jobs and parks the rest in arrival order', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `job-${i}`);
    const decisions = await Promise.all(ids.map((id) => slots.admit(free, id)));
    const admitted = ids.filter((_, i) => decisions[i].admitted);
    expect(admitted).toHaveLength(2);
    expect((await slots.running(free.owner)).sort()).toEqual([...admitted].sort());
    const parked = await slots.parked(free.owner);
    expect(parked).toHaveLength(18);
    expect(parked).toEqual(ids.filter((id) => !admitted.includes(id)));
    // Each parked job learnt its place in line.
    expect(
      decisions
        .filter((d) => !d.admitted)
        .map((d) => d.place)
        .sort((a, b) => (a ?? 0) - (b ?? 0)),
    ).toEqual(parked.map((_, i) => i));
  });

  it('wakes the front of the line every recheck and those further back less often, up to a bound', () => {
    expect(parkedWakeMs(0, 2)).toBe(PARK_RECHECK_MS);
    expect(parkedWakeMs(1, 2)).toBe(PARK_RECHECK_MS);
    expect(parkedWakeMs(2, 2)).toBe(2 * PARK_RECHECK_MS);
    expect(parkedWakeMs(9, 10)).toBe(PARK_RECHECK_MS);
    expect(parkedWakeMs(10_000, 2)).toBe(PARK_MAX_SLEEP_MS);
  });

  it('hands an ended job’s slot to the oldest parked job, whether it completed or failed', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await slots.admit(free, id);
    expect(await slots.parked(free.owner)).toEqual(['c', 'd']);
    // Completed or failed, the worker gives the slot back the same way.
    expect((await slots.release(free, 'a')).handed).toEqual(['c']);
    expect((await slots.running(free.owner)).sort()).toEqual(['b', 'c']);
    // The handed job keeps its slot when a worker picks it up; a newcomer still waits its turn.
    expect((await slots.admit(free, 'c')).admitted).toBe(true);
    expect((await slots.admit(free, 'e')).admitted).toBe(false);
    expect((await slots.release(free, 'b')).handed).toEqual(['d']);
    expect(await slots.parked(free.owner)).toEqual(['e']);
  });

  it('forgets a parked job that ends without running (cancelled, past its deadline)', async () => {
    for (const id of ['a', 'b', 'c', 'd']) await slots.admit(free, id);
    expect((await slots.release(free, 'c')).handed).toEqual([]);
    expect(await slots.parked(free.owner)).toEqual(['d']);
  });

  it('reclaims the slot of a worker that stopped renewing its lease', async () => {
    await slots.admit(free, 'crashed');
    await slots.admit(free, 'alive');
    expect((await slots.admit(free, 'parked')).admitted).toBe(false);
    clock += 20_000;
    expect(await slots.renew(free, 'alive')).toBe(true);
    expect(await slots.renew(free, 'crashed-never-held')).toBe(false);
    clock += 15_000; // 'crashed' last renewed 35 s ago: its lease ran out; 'alive' renewed 15 s ago.
    expect(await slots.running(free.owner)).toEqual(['alive']);
    // The parked job wakes (its recheck), tries again and gets the reclaimed slot.
    expect((await slots.admit(free, 'parked')).admitted).toBe(true);
    expect((await slots.running(free.owner)).sort()).toEqual(['alive', 'parked']);
  });

  it('keeps keys apart: one key at its cap never takes another’s slots', async () => {
    const pro: SlotOwner = { owner: 'key-pro', cap: 10 };
    for (const id of ['f1', 'f2', 'f3', 'f4']) await slots.admit(free, id);
    expect((await slots.admit(pro, 'p1')).admitted).toBe(true);
    expect(await slots.running(pro.owner)).toEqual(['p1']);
  });

  it('caps hosted jobs by their plan and leaves local jobs uncapped', () => {
    expect(slotOwnerOf({ owner: 'k', plan: 'free' })).toEqual({ owner: 'k', cap: 2 });
    expect(slotOwnerOf({ owner: 'k', plan: 'pro' })).toEqual({ owner: 'k', cap: 10 });
    expect(slotOwnerOf({ owner: 'k', plan: 'enterprise' })).toEqual({ owner: 'k', cap: 50 });
    expect(slotOwnerOf({})).toBeUndefined();
    expect(slotOwnerOf({ owner: 'k' })).toBeUndefined();
  });
});
