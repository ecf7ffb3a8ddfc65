import type { Job } from 'bullmq';

/**
 * Resolves once BullMQ has recorded `job` in `state`, or after `timeoutMs` (a processor that
 * notifies someone of its job's end waits for it, so a receiver that looks the job up on arrival
 * sees it finished). Never throws.
 */
export async function whenJobState(job: Pick<Job, 'getState'>, state: 'completed' | 'failed', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await job.getState().catch(() => undefined)) === state) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
