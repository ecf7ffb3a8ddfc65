import type { Worker } from 'bullmq';
import { workerOpsAddress, type Config } from '@sitelens/config';
import { AppError, QUEUES, bounded, type ParseQueueJobName, type ParseQueuePayload } from '@sitelens/contracts';
import { createRedis, startJobWorker, whenStarted } from '@sitelens/queue';
import { createMetrics, measureJob, startOpsServer, type Logger, type Metrics, type OpsServer } from '@sitelens/telemetry';
import { openParseWorkerContext, type ContextOptions, type ParseWorkerContext } from './context';
import { createParseHandlers } from './handlers';
import type { ParseJobHandler, ParseJobHandlers } from './handlers/job-handler';

export interface RunningParseWorker {
  worker: Worker;
  context: ParseWorkerContext;
  /** Probes and metrics listener (OPS_HTTP_ADDR); absent with ROLE=all. */
  ops?: OpsServer;
  close(): Promise<void>;
}

/** Composition root of the parse worker: scrape, crawl, parse and watch jobs. */
export async function startParseWorker(
  config: Config,
  logger: Logger,
  metrics: Metrics = createMetrics({ service: 'parse-worker' }),
  options: ContextOptions & { handlers?: ParseJobHandlers } = {},
): Promise<RunningParseWorker> {
  const opened = await openParseWorkerContext(config, logger, metrics, options);
  const handlers = options.handlers ?? createParseHandlers(opened.context);
  const connection = createRedis(config.redis.url, 'worker');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const jobs = startJobWorker<ParseQueuePayload, unknown, ParseQueueJobName>(
    QUEUES.parse,
    {
      connection,
      prefix: config.redis.prefix,
      retentionMs: config.jobRetentionMs,
      eventsMaxLen: config.redis.eventsMaxLen,
      concurrency: config.llm.concurrency,
      queueTimeoutMs: config.jobQueueTimeoutMs,
    },
    {
      process: async (job) => {
        const handler = handlers[job.name] as ParseJobHandler | undefined;
        if (!handler) throw new AppError('INTERNAL', `No handler for ${job.name} jobs`);
        return handler(job, logger.child({ jobId: job.id, job: job.name }));
      },
      measure: (job, work) => measureJob(metrics, QUEUES.parse, job.name, work),
    },
  );
  const { worker } = jobs;
  worker.on('error', (error) => logger.warn({ err: error.message }, 'parse worker problem'));
  const opsAddress = workerOpsAddress(config);
  const ops = opsAddress
    ? await startOpsServer({
        address: opsAddress,
        registry: metrics.registry,
        logger,
        readiness: { redis: () => connection.status === 'ready', worker: () => worker.isRunning() },
      })
    : undefined;
  logger.info('parse worker started');
  return {
    worker: worker as unknown as Worker,
    context: opened.context,
    ops,
    async close() {
      // Stop taking jobs and let running ones finish within the deadline; what is left is handed
      // back (its lock lapses and another worker takes it as stalled). With Redis unreachable
      // BullMQ's close never resolves, so every wait is bounded and the connection dropped.
      await whenStarted(worker);
      await bounded(worker.close(), config.shutdownTimeoutMs);
      await bounded(
        worker.close(true).catch(() => undefined),
        2_000,
      );
      await bounded(opened.close(), 5_000);
      await jobs.close();
      connection.disconnect();
      // Last, so probes keep answering while jobs drain.
      await ops?.close();
    },
  };
}
