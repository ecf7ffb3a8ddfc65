import type { Job } from 'bullmq';
import { systemClock, type Clock, type CrawlProgress, type CrawlStatistics } from '@sitelens/contracts';

/**
 * Writes a running crawl's statistics as job progress (what GET /v1/crawl/<id> shows while it
 * runs). Reports arrive after every page; writes are coalesced, one at a time and at most one per
 * `intervalMs`, so a fast crawl does not turn into a stream of Redis writes and events.
 */
export class CrawlProgressWriter {
  private latest: CrawlStatistics | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly job: Pick<Job, 'updateProgress'>,
    private readonly intervalMs = 100,
    private readonly clock: Pick<Clock, 'sleep'> = systemClock,
  ) {}

  report(statistics: CrawlStatistics): void {
    if (this.stopped) return;
    this.latest = statistics;
    this.running ??= this.pump();
  }

  /** Stops reporting and waits for a write in flight (the job's result carries the final figures). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.latest = undefined;
    await this.running;
  }

  private async pump(): Promise<void> {
    while (this.latest && !this.stopped) {
      const progress: CrawlProgress = { statistics: this.latest };
      this.latest = undefined;
      // Progress is a courtesy: a failed write must not fail the crawl.
      await this.job.updateProgress(progress).catch(() => undefined);
      if (this.latest) await this.clock.sleep(this.intervalMs);
    }
    this.running = undefined;
  }
}
