import type { CrawlStatistics } from '@sitelens/contracts';
import { CrawlProgressWriter } from '../src/handlers/crawl-progress';

const stats = (successful: number): CrawlStatistics => ({ total_pages: successful, successful_pages: successful, failed_pages: 0 });

/**
 * A job whose progress writes stay in flight until the test finishes them, so the order of events
 * is set by the test, not by timers. `writes` records each write as it starts.
 */
function controlledJob(fail?: (call: number) => boolean) {
  const writes: unknown[] = [];
  const inFlight: Array<() => void> = [];
  let waiters: Array<() => void> = [];
  let maxInFlight = 0;
  return {
    writes,
    maxInFlight: () => maxInFlight,
    updateProgress(progress: unknown): Promise<void> {
      writes.push(progress);
      for (const wake of waiters) wake();
      waiters = [];
      if (fail?.(writes.length)) return Promise.reject(new Error('redis went away'));
      return new Promise<void>((resolve) => {
        inFlight.push(resolve);
        maxInFlight = Math.max(maxInFlight, inFlight.length);
      });
    },
    finishWrite(): void {
      inFlight.shift()!();
    },
    async writesReach(count: number): Promise<void> {
      while (writes.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/** The writer's pause between writes, recorded and released by the test. */
function controlledSleep() {
  const sleeps: number[] = [];
  const pending: Array<() => void> = [];
  return {
    sleeps,
    clock: {
      sleep: (ms: number) => {
        sleeps.push(ms);
        return new Promise<void>((resolve) => pending.push(resolve));
      },
    },
    wake: () => pending.shift()!(),
  };
}

/** Lets pending promise callbacks run (a turn of the event loop, not a timed wait). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CrawlProgressWriter', () => {
  it('writes the first report at once and coalesces a burst into the latest figures', async () => {
    const job = controlledJob();
    const pause = controlledSleep();
    const writer = new CrawlProgressWriter(job, 20, pause.clock);
    for (let i = 1; i <= 50; i += 1) writer.report(stats(i));
    expect(job.writes).toEqual([{ statistics: stats(1) }]);
    job.finishWrite();
    await settle();
    expect(pause.sleeps).toEqual([20]);
    pause.wake();
    await job.writesReach(2);
    expect(job.writes).toEqual([{ statistics: stats(1) }, { statistics: stats(50) }]);
    expect(job.maxInFlight()).toBe(1);
    job.finishWrite();
    await writer.stop();
  });

  it('keeps the interval between writes: the next write waits for the pause to end', async () => {
    const job = controlledJob();
    const pause = controlledSleep();
    const writer = new CrawlProgressWriter(job, 50, pause.clock);
    writer.report(stats(1));
    writer.report(stats(2));
    job.finishWrite();
    await settle();
    expect(pause.sleeps).toEqual([50]);
    // However long the machine takes, nothing is written while the pause lasts.
    writer.report(stats(3));
    await settle();
    expect(job.writes).toHaveLength(1);
    pause.wake();
    await job.writesReach(2);
    expect(job.writes).toEqual([{ statistics: stats(1) }, { statistics: stats(3) }]);
    job.finishWrite();
    await writer.stop();
  });

  it('waits for the write in flight on stop and writes nothing after', async () => {
    const job = controlledJob();
    const writer = new CrawlProgressWriter(job, 10, controlledSleep().clock);
    writer.report(stats(1));
    writer.report(stats(2));
    let stopped = false;
    const stopping = writer.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    job.finishWrite();
    await stopping;
    expect(job.writes).toEqual([{ statistics: stats(1) }]);
    writer.report(stats(3));
    await settle();
    expect(job.writes).toHaveLength(1);
  });

  it('survives a failed write', async () => {
    const job = controlledJob((call) => call === 1);
    const pause = controlledSleep();
    const writer = new CrawlProgressWriter(job, 1, pause.clock);
    writer.report(stats(1));
    writer.report(stats(2));
    await settle();
    pause.wake();
    await job.writesReach(2);
    expect(job.writes).toEqual([{ statistics: stats(1) }, { statistics: stats(2) }]);
    job.finishWrite();
    await writer.stop();
  });
});
