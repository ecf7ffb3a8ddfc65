import type { BlobStore } from './blob-store';

/** The two log calls a sweep makes (a pino logger fits). */
export interface SweepLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface RetentionOptions {
  prefix: string;
  /** Objects older than this go (JOB_RETENTION: their jobs are gone from Redis by then). */
  maxAgeMs: number;
  /** Time between sweeps (default: a quarter of `maxAgeMs`, between 1 minute and 1 hour). */
  everyMs?: number;
  logger: SweepLogger;
}

/**
 * Removes objects (images, job results) whose jobs have expired, soon after start and then periodically. Several workers
 * sweeping the same store is harmless: deleting a deleted object is a no-op.
 */
export function scheduleSweep(store: BlobStore, options: RetentionOptions): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const removed = await store.sweep(options.prefix, options.maxAgeMs);
      if (removed > 0) options.logger.info({ removed, prefix: options.prefix }, 'expired objects removed');
    } catch (error) {
      options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'blob sweep failed');
    } finally {
      running = false;
    }
  };
  const everyMs = options.everyMs ?? Math.min(3_600_000, Math.max(60_000, options.maxAgeMs / 4));
  const first = setTimeout(() => void sweep(), Math.min(60_000, everyMs));
  const timer = setInterval(() => void sweep(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
