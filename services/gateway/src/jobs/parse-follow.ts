import { encodeJobError, AppError, type ParseJobProgress, type ParseJobResult } from '@sitelens/contracts';
import { followJob, type JobEnd } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { withRedis } from './redis-guard';

/** How a parse job ended, as the gateway learnt it. */
export type ParseOutcome = { ok: true; result: ParseJobResult } | { ok: false; failedReason: string };

export interface ParseWatch {
  /** Settles when the job ends, the wait passes, or `stop` is called. Never rejects. */
  done: Promise<ParseOutcome>;
  stop(reason?: string): void;
}

const CLIENT_GONE = 'JOB_FAILED: Cancelled: the client disconnected';

function outcomeOf(end: JobEnd<ParseJobResult>, waitMs: number, stopReason: string): ParseOutcome {
  if (end.state === 'completed') return { ok: true, result: end.result };
  if (end.state === 'failed') return { ok: false, failedReason: end.failedReason };
  if (end.why === 'stopped') return { ok: false, failedReason: stopReason };
  if (end.why === 'removed') return { ok: false, failedReason: 'JOB_FAILED: The parse job was removed' };
  return { ok: false, failedReason: `JOB_TIMEOUT: The parse did not finish within ${Math.round(waitMs / 1000)} s` };
}

/**
 * Follows one parse job (`followJob`): its progress chunks as they come, then its end as a parse
 * outcome. Start it before the job is added, so no chunk slips by. `stop(reason)` ends it with that
 * reason (the client went away, or the gateway is shutting down).
 */
export function followParse(
  deps: GatewayDeps,
  jobId: string,
  options: { onProgress?(chunk: ParseJobProgress): void; waitMs: number },
): ParseWatch {
  let stopReason = CLIENT_GONE;
  const follower = followJob<ParseJobResult, unknown>({ queue: deps.queues.parse, events: deps.events.parse }, jobId, {
    waitMs: options.waitMs,
    read: (work) => withRedis(deps.redis, work),
    onProgress: (data) => {
      if (data !== null && typeof data === 'object') options.onProgress?.(data as ParseJobProgress);
    },
  });
  const done = follower.done.then(
    (end) => outcomeOf(end, options.waitMs, stopReason),
    (error: unknown) => ({
      ok: false as const,
      failedReason: encodeJobError(error instanceof AppError ? error : new AppError('UNAVAILABLE', 'The job could not be read')),
    }),
  );
  return {
    done,
    stop: (reason = CLIENT_GONE) => {
      stopReason = reason;
      follower.stop();
    },
  };
}
