import type { Queue } from 'bullmq';
import type { Metrics } from '@sitelens/telemetry';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

/**
 * Reads each queue's depth into the gauge, at scrape time (wherever /metrics is served: the API
 * port in local mode, the ops port in hosted mode). A queue Redis cannot answer for in time is
 * skipped, and its series removed rather than left stale.
 */
export async function collectQueueDepth(queues: readonly Queue[], gauge: Metrics['queueJobs'], timeoutMs = 1_000): Promise<void> {
  await Promise.all(
    queues.map(async (queue) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      const counts = await Promise.race([queue.getJobCounts(...STATES).catch(() => undefined), timeout]);
      clearTimeout(timer);
      if (!counts) {
        for (const state of STATES) gauge.remove({ queue: queue.name, state });
        return;
      }
      for (const state of STATES) gauge.set({ queue: queue.name, state }, counts[state] ?? 0);
    }),
  );
}
