import type { Job, QueueEvents } from 'bullmq';
import { waitForJobEnd } from '../src/jobs/job-waiter';

/** A job whose end never comes: like BullMQ's, its wait gives up after `ttl` ms. */
const endless = {
  waitUntilFinished: (_events: QueueEvents, ttl: number) =>
    new Promise((_resolve, reject) => setTimeout(() => reject(new Error('timed out')), ttl).unref()),
} as unknown as Job;
const events = {} as QueueEvents;

describe('waitForJobEnd', () => {
  it('stops waiting as soon as the gateway starts shutting down', async () => {
    const stopping = new AbortController();
    const started = Date.now();
    setTimeout(() => stopping.abort(), 100);
    await waitForJobEnd(endless, events, 30_000, stopping.signal);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not wait at all once shutdown has begun, and waits out the time without a signal', async () => {
    const stopping = new AbortController();
    stopping.abort();
    const started = Date.now();
    await waitForJobEnd(endless, events, 30_000, stopping.signal);
    await waitForJobEnd(endless, events, 150);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
