import type { BlobStore } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';

export interface RetentionOptions {
  prefix: string;
  /** Objects older than this go (JOB_RETENTION: their jobs are gone from Redis by then). */
  maxAgeMs: number;
  /** Time between sweeps. */
  everyMs: number;
  logger: Logger;
}

/**
 * Removes images whose jobs have expired, soon after start and then periodically. Several workers
 * sweeping the same store is harmless: deleting a deleted object is a no-op.
 */
export function scheduleSweep(store: BlobStore, options: RetentionOptions): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const removed = await store.sweep(options.prefix, options.maxAgeMs);
      if (removed > 0) options.logger.info({ removed, prefix: options.prefix }, 'expired images removed');
    } catch (error) {
      options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'image sweep failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void sweep(), Math.min(60_000, options.everyMs));
  const timer = setInterval(() => void sweep(), options.everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
