import type { Redis } from 'ioredis';
import { AppError } from '@sitelens/contracts';

export interface JobAbortOptions {
  redis: Redis;
  /** Key whose presence means the client went away (`parseCancelKey`). */
  cancelKey: string;
  /** The job's own time budget; past it the work stops with JOB_TIMEOUT. */
  timeoutMs: number;
  /** How often the cancel key is checked. */
  pollMs?: number;
}

export interface JobAbort {
  /** Aborts on cancellation or timeout; every fetch, crawl and model call of the job takes it. */
  signal: AbortSignal;
  /** The error to report: the abort's reason once aborted, else the error itself. */
  reasonFor(error: unknown): unknown;
  stop(): void;
}

/**
 * Stops a parse when its client disconnects (the gateway sets the cancel key) or when it runs past
 * its time budget. Polling one key a few times a second keeps this free of extra connections; a
 * Redis hiccup only delays the check.
 */
export function watchJobAbort(options: JobAbortOptions): JobAbort {
  const controller = new AbortController();
  let checking = false;
  const poll = setInterval(() => {
    if (checking || controller.signal.aborted) return;
    checking = true;
    options.redis
      .exists(options.cancelKey)
      .then((found) => {
        if (found > 0) controller.abort(new AppError('JOB_FAILED', 'Cancelled: the client disconnected'));
      })
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, options.pollMs ?? 250);
  const deadline = setTimeout(() => {
    const seconds = Math.round(options.timeoutMs / 1000);
    controller.abort(new AppError('JOB_TIMEOUT', `The parse did not finish within its ${seconds} s budget`));
  }, options.timeoutMs);

  return {
    signal: controller.signal,
    reasonFor: (error) => (controller.signal.aborted ? controller.signal.reason : error),
    stop() {
      clearInterval(poll);
      clearTimeout(deadline);
    },
  };
}
