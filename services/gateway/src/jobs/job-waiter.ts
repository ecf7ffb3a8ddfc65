import type { Job, QueueEvents } from 'bullmq';

/**
 * Long-poll support: resolves when the job finishes (either way) or `waitMs` passes. Failures are
 * not errors here; the caller re-reads the job's state and renders it.
 */
export async function waitForJobEnd(job: Job, events: QueueEvents | undefined, waitMs: number): Promise<void> {
  if (waitMs <= 0) return;
  if (events) {
    await job.waitUntilFinished(events, waitMs).catch(() => undefined);
    return;
  }
  // No event stream available (e.g. in a minimal test app): poll the job state.
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed' || state === 'unknown') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
