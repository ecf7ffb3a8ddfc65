import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus metric the service exports, on one registry per process. Built by each
 * composition root and passed down; nothing registers metrics on import.
 */
export function createMetrics(options: { service: string; collectDefaults?: boolean }) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.collectDefaults !== false) collectDefaultMetrics({ register: registry });

  return {
    registry,
    httpRequests: new Counter({
      name: 'sitelens_http_requests_total',
      help: 'HTTP requests by route, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpInFlight: new Gauge({
      name: 'sitelens_http_requests_in_flight',
      help: 'HTTP requests received and not yet answered or closed (long polls included), by method',
      labelNames: ['method'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'sitelens_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'sitelens_jobs_total',
      help: 'Jobs finished by queue, job name and outcome',
      labelNames: ['queue', 'name', 'outcome'] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'sitelens_job_duration_seconds',
      help: 'Job processing time',
      labelNames: ['queue', 'name', 'outcome'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    screenshotPhases: new Histogram({
      name: 'sitelens_screenshot_phase_seconds',
      help: 'Where screenshot jobs spend their time, by phase (queued, gate, slot, context, page, setup, navigate, wait, full_page, capture, metadata, release, store)',
      labelNames: ['phase'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    queueJobs: new Gauge({
      name: 'sitelens_queue_jobs',
      help: 'Jobs in each queue by state, read from Redis when the gateway is scraped',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
    }),
    browserPages: new Gauge({
      name: 'sitelens_browser_pages_in_use',
      help: 'Browser pages (contexts) currently open',
      registers: [registry],
    }),
    browserLaunches: new Counter({
      name: 'sitelens_browser_launches_total',
      help: 'Chromium launches, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    modelCalls: new Counter({
      name: 'sitelens_model_calls_total',
      help: 'Language-model calls by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    modelTokens: new Counter({
      name: 'sitelens_model_tokens_total',
      help: 'Language-model tokens by kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Runs one job's work, counting and timing it by queue, job name and outcome. */
export async function measureJob<T>(
  metrics: Pick<Metrics, 'jobs' | 'jobDuration'>,
  queue: string,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let outcome: 'completed' | 'failed' = 'failed';
  try {
    const result = await work();
    outcome = 'completed';
    return result;
  } finally {
    const labels = { queue, name, outcome };
    metrics.jobs.inc(labels);
    metrics.jobDuration.observe(labels, (Date.now() - started) / 1000);
  }
}
