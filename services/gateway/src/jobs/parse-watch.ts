import type { QueueEventsListener } from 'bullmq';
import type { ParseJobProgress, ParseJobResult } from '@sitelens/contracts';
import { readJob } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';

/** How a parse job ended, as the gateway learnt it. */
export type ParseOutcome = { ok: true; result: ParseJobResult } | { ok: false; failedReason: string };

export interface ParseWatch {
  /** Settles when the job ends, the wait passes, or `stop` is called. Never rejects. */
  done: Promise<ParseOutcome>;
  stop(reason?: string): void;
}

export interface WatchOptions {
  /** Called with each progress chunk, in the order the worker wrote them. */
  onProgress?(chunk: ParseJobProgress): void;
  waitMs: number;
}

/** BullMQ also emits every job event under `<event>:<jobId>`. */
interface JobScopedEvents extends QueueEventsListener {
  [event: `progress:${string}`]: (args: { jobId: string; data: unknown }, id: string) => void;
  [event: `completed:${string}`]: (args: { jobId: string; returnvalue: unknown }, id: string) => void;
  [event: `failed:${string}`]: (args: { jobId: string; failedReason: string }, id: string) => void;
  [event: `removed:${string}`]: (args: { jobId: string }, id: string) => void;
}

/** How often the job's state is read besides the events: a safety net should one be missed. */
const CHECK_MS = 3_000;

/**
 * Follows one parse job: its progress events as they come, then its end. Start watching before the
 * job is added, so no event can slip by. The job's state is also read now and then, and an end
 * seen twice in a row is trusted: one missed event cannot hang a request, and trailing progress
 * events get time to arrive first.
 */
export function watchParseJob(deps: GatewayDeps, jobId: string, options: WatchOptions): ParseWatch {
  const events = deps.events.parse;
  let settle: (outcome: ParseOutcome) => void = () => undefined;
  const done = new Promise<ParseOutcome>((resolve) => {
    settle = resolve;
  });
  let finished = false;
  let endsSeen = 0;
  let checking = false;

  const onProgress = ({ data }: { data: unknown }) => {
    if (finished || data === null || typeof data !== 'object') return;
    options.onProgress?.(data as ParseJobProgress);
  };
  const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => finish({ ok: true, result: returnvalue as ParseJobResult });
  const onFailed = ({ failedReason }: { failedReason: string }) => finish({ ok: false, failedReason });
  const onRemoved = () => finish({ ok: false, failedReason: 'JOB_FAILED: The parse job was removed' });

  events.on<JobScopedEvents>(`progress:${jobId}`, onProgress);
  events.on<JobScopedEvents>(`completed:${jobId}`, onCompleted);
  events.on<JobScopedEvents>(`failed:${jobId}`, onFailed);
  events.on<JobScopedEvents>(`removed:${jobId}`, onRemoved);

  const check = async () => {
    const snapshot = await readJob(deps.queues.parse, jobId);
    if (!snapshot || finished) return;
    const { job, state } = snapshot;
    if (state !== 'completed' && state !== 'failed') {
      endsSeen = 0;
      return;
    }
    endsSeen += 1;
    if (endsSeen < 2) return;
    if (state === 'completed') onCompleted({ returnvalue: job.returnvalue });
    else onFailed({ failedReason: job.failedReason });
  };
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    check()
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, CHECK_MS);
  const deadline = setTimeout(() => {
    finish({ ok: false, failedReason: `JOB_TIMEOUT: The parse did not finish within ${Math.round(options.waitMs / 1000)} s` });
  }, options.waitMs);

  function finish(outcome: ParseOutcome): void {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    clearTimeout(deadline);
    events.off<JobScopedEvents>(`progress:${jobId}`, onProgress);
    events.off<JobScopedEvents>(`completed:${jobId}`, onCompleted);
    events.off<JobScopedEvents>(`failed:${jobId}`, onFailed);
    events.off<JobScopedEvents>(`removed:${jobId}`, onRemoved);
    settle(outcome);
  }

  return {
    done,
    stop: (reason = 'JOB_FAILED: Cancelled: the client disconnected') => finish({ ok: false, failedReason: reason }),
  };
}
