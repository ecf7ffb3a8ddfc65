import { collectQueueDepth } from '../jobs/queue-depth';
import { defineRoute } from '../http/route';

/**
 * `/metrics` on the API port, local mode only (hosted mode serves it on OPS_HTTP_ADDR): Prometheus
 * text of this process's registry (HTTP latency and status, and with ROLE=all the workers' jobs,
 * browser and model metrics too), plus queue depth read on scrape.
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
