import type { CrawlStatistics } from '@sitelens/contracts';
import { CrawlProgressWriter } from '../src/handlers/crawl-progress';

const stats = (successful: number): CrawlStatistics => ({ total_pages: successful, successful_pages: successful, failed_pages: 0 });

/** A job whose progress writes take `writeMs` each and are recorded in order. */
function recordingJob(writeMs: number) {
  const writes: unknown[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    writes,
    maxInFlight: () => maxInFlight,
    async updateProgress(progress: unknown) {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, writeMs));
      writes.push(progress);
      inFlight -= 1;
    },
  };
}

describe('CrawlProgressWriter', () => {
  it('writes the first report at once and coalesces a burst into the latest figures', async () => {
    const job = recordingJob(5);
    const writer = new CrawlProgressWriter(job, 20);
    for (let i = 1; i <= 50; i += 1) writer.report(stats(i));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(job.writes).toEqual([{ statistics: stats(1) }, { statistics: stats(50) }]);
    expect(job.maxInFlight()).toBe(1);
    await writer.stop();
  });

  it('keeps at least the interval between writes', async () => {
    const job = recordingJob(1);
    const writer = new CrawlProgressWriter(job, 50);
    const started = Date.now();
    writer.report(stats(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    writer.report(stats(2));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(job.writes).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    await writer.stop();
  });

  it('waits for the write in flight on stop and writes nothing after', async () => {
    const job = recordingJob(30);
    const writer = new CrawlProgressWriter(job, 10);
    writer.report(stats(1));
    writer.report(stats(2));
    await writer.stop();
    expect(job.writes).toEqual([{ statistics: stats(1) }]);
    writer.report(stats(3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(job.writes).toHaveLength(1);
  });

  it('survives a failed write', async () => {
    let calls = 0;
    const writer = new CrawlProgressWriter(
      {
        updateProgress: async () => {
          calls += 1;
          if (calls === 1) throw new Error('redis went away');
        },
      },
      1,
    );
    writer.report(stats(1));
    writer.report(stats(2));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(2);
    await writer.stop();
  });
});
