/**
 * Cancelling a crawl from another process: the gateway marks the job cancelled in Redis (a key
 * that outlives the job's wait in the queue) and announces it on a channel; the parse worker
 * running it hears the announcement and stops the crawl, and a crawl that starts later finds the
 * mark. The crawl ends with the pages it has, status `cancelled`.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '@sitelens/telemetry';

const keyOf = (prefix: string, jobId: string) => `${prefix}:crawl-cancel:${jobId}`;
const channelOf = (prefix: string) => `${prefix}:crawl-cancel`;

/** Marks the crawl cancelled (for `ttlMs`, the job's retention) and tells the workers. */
export async function requestCrawlCancel(redis: Redis, prefix: string, jobId: string, ttlMs: number): Promise<void> {
  await redis.set(keyOf(prefix, jobId), '1', 'PX', Math.max(1_000, ttlMs));
  await redis.publish(channelOf(prefix), jobId);
}

export async function isCrawlCancelRequested(redis: Redis, prefix: string, jobId: string): Promise<boolean> {
  return (await redis.exists(keyOf(prefix, jobId))) === 1;
}

/**
 * A worker process's listener: `watch(jobId)` gives a signal that aborts when the crawl is
 * cancelled (already, or while it runs). One subscriber connection per process.
 */
export class CrawlCancellations {
  private readonly running = new Map<string, AbortController>();
  private readonly ready: Promise<unknown>;

  constructor(
    private readonly subscriber: Redis,
    private readonly redis: Redis,
    private readonly prefix: string,
    logger?: Pick<Logger, 'warn'>,
  ) {
    subscriber.on('message', (_channel: string, jobId: string) => {
      this.running.get(jobId)?.abort(new Error('The crawl was cancelled'));
    });
    // A lost subscription means cancels go unheard until it is back (the mark still stops a crawl
    // that starts later): say so.
    subscriber.on('error', (error: Error) => logger?.warn({ err: error.message }, 'crawl cancel subscription problem'));
    this.ready = subscriber.subscribe(channelOf(prefix)).catch((error: unknown) => {
      logger?.warn({ err: (error as Error).message }, 'could not subscribe to crawl cancels');
    });
  }

  /** Listens for the job's cancellation until `release()`; the signal is aborted at once when it is already marked. */
  async watch(jobId: string): Promise<{ signal: AbortSignal; release(): void }> {
    const controller = new AbortController();
    this.running.set(jobId, controller);
    const release = () => {
      if (this.running.get(jobId) === controller) this.running.delete(jobId);
    };
    // Subscribed before the mark is read: a cancel in between is heard either way.
    await this.ready;
    if (await isCrawlCancelRequested(this.redis, this.prefix, jobId).catch(() => false)) {
      controller.abort(new Error('The crawl was cancelled'));
    }
    return { signal: controller.signal, release };
  }

  async close(): Promise<void> {
    this.running.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
