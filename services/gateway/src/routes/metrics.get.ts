import type { Queue } from 'bullmq';
import type { Metrics } from '@sitelens/telemetry';
import { defineRoute } from '../http/route';

const STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

/** Reads each queue's depth into the gauge; a queue Redis cannot answer for in time is skipped. */
async function collectQueueDepth(queues: readonly Queue[], gauge: Metrics['queueJobs'], timeoutMs: number): Promise<void> {
  await Promise.all(
    queues.map(async (queue) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      const counts = await Promise.race([queue.getJobCounts(...STATES).catch(() => undefined), timeout]);
      clearTimeout(timer);
      if (!counts) {
        // No stale depth while Redis is away: the series disappear until it answers again.
        for (const state of STATES) gauge.remove({ queue: queue.name, state });
        return;
      }
      for (const state of STATES) gauge.set({ queue: queue.name, state }, counts[state] ?? 0);
    }),
  );
}

/**
 * `/metrics`: Prometheus text of this process's registry (HTTP latency and status, and with
 * ROLE=all the workers' jobs, browser and model metrics too), plus queue depth read on scrape.
 */
export const metricsGet = defineRoute({
  method: 'get',
  paths: ['/metrics'],
  summary: 'Prometheus metrics',
  tag: 'Service',
  auth: false,
  async handler({ deps, res }) {
    await collectQueueDepth(deps.allQueues, deps.metrics.queueJobs, 1_000);
    const text = await deps.metrics.registry.metrics();
    res.status(200).setHeader('Content-Type', deps.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(text);
    return undefined;
  },
});
