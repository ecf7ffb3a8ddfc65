import type { Job, QueueEvents } from 'bullmq';

/**
 * Long-poll support: resolves when the job finishes (either way), `waitMs` passes or `signal`
 * aborts (the gateway is shutting down). Failures are not errors here; the caller re-reads the
 * job's state and renders it.
 */
export async function waitForJobEnd(job: Job, events: QueueEvents, waitMs: number, signal?: AbortSignal): Promise<void> {
  if (waitMs <= 0 || signal?.aborted) return;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([job.waitUntilFinished(events, waitMs).catch(() => undefined), aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
