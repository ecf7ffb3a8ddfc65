import type { Job, QueueEvents } from 'bullmq';
import { waitForJobEnd } from '../src/jobs/job-waiter';

/** A job that never finishes, through either the event stream or its polled state. */
const endless = { waitUntilFinished: () => new Promise(() => undefined), getState: async () => 'active' } as unknown as Job;
const events = {} as QueueEvents;

describe('waitForJobEnd', () => {
  it.each([
    ['the event stream', events],
    ['polling', undefined],
  ])('stops waiting, through %s, as soon as the gateway starts shutting down', async (_how, stream) => {
    const stopping = new AbortController();
    const started = Date.now();
    setTimeout(() => stopping.abort(), 100);
    await waitForJobEnd(endless, stream, 30_000, stopping.signal);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not wait at all once shutdown has begun, and waits out the time without a signal', async () => {
    const stopping = new AbortController();
    stopping.abort();
    const started = Date.now();
    await waitForJobEnd(endless, events, 30_000, stopping.signal);
    await waitForJobEnd(endless, undefined, 150);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
