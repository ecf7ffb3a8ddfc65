import type { Job, Worker } from 'bullmq';
import type { Config } from '@sitelens/config';
import { AppError, QUEUES, bounded, type ParseQueueJobName, type ParseQueuePayload } from '@sitelens/contracts';
import { createJobGate, createParseQueue, createRedis, createWorker, dueEnvelope, jobDeadline, toJobFailure } from '@sitelens/queue';
import { createMetrics, measureJob, startOpsServer, type Logger, type Metrics, type OpsServer } from '@sitelens/telemetry';
import { openParseWorkerContext, type ContextOptions, type ParseWorkerContext } from './context';
import { createParseHandlers } from './handlers';

/** One kind of work on the parse queue. Handlers are registered by job name. */
export type ParseJobHandler = (job: Job<ParseQueuePayload, unknown, ParseQueueJobName>, logger: Logger) => Promise<unknown>;

export interface RunningParseWorker {
  worker: Worker;
  context: ParseWorkerContext;
  /** Probes and metrics listener (WORKER_HTTP_ADDR); absent with ROLE=all. */
  ops?: OpsServer;
  close(): Promise<void>;
}


/** Composition root of the parse worker: scrape, crawl, parse and watch jobs. */
export async function startParseWorker(
  config: Config,
  logger: Logger,
  metrics: Metrics = createMetrics({ service: 'parse-worker' }),
  options: ContextOptions & { handlers?: Partial<Record<ParseQueueJobName, ParseJobHandler>> } = {},
): Promise<RunningParseWorker> {
  const opened = await openParseWorkerContext(config, logger, metrics, options);
  const handlers = options.handlers ?? createParseHandlers(opened.context);
  const connection = createRedis(config.redis.url, 'worker');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  // Fair share: a job runs in its key's slot; one over the key's cap is parked again at once.
  const ownQueue = createParseQueue({ connection, prefix: config.redis.prefix, retentionMs: config.jobRetentionMs });
  const gate = createJobGate(connection, ownQueue, { prefix: config.redis.prefix, queue: QUEUES.parse });
  const worker = createWorker<ParseQueuePayload, unknown, ParseQueueJobName>(
    QUEUES.parse,
    async (job, token) => {
      const late = Date.now() > jobDeadline(dueEnvelope(job), config.jobQueueTimeoutMs);
      const measured = () =>
        measureJob(metrics, QUEUES.parse, job.name, async () => {
          try {
            if (late) throw new AppError('JOB_TIMEOUT', 'The job waited in the queue past its deadline');
            const handler = handlers[job.name];
            if (!handler) throw new AppError('INTERNAL', `No handler for ${job.name} jobs`);
            return await handler(job, logger.child({ jobId: job.id, job: job.name }));
          } catch (error) {
            throw toJobFailure(error);
          }
        });
      if (late) {
        await gate.forget(job);
        return measured();
      }
      return gate.run(job, token, measured);
    },
    { connection, prefix: config.redis.prefix },
    { concurrency: config.llm.concurrency },
  );
  worker.on('error', (error) => logger.warn({ err: error.message }, 'parse worker problem'));
  const ops = config.workerHttp
    ? await startOpsServer({
        address: config.workerHttp,
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
      await bounded(worker.close(), config.shutdownTimeoutMs);
      await bounded(worker.close(true).catch(() => undefined), 2_000);
      await bounded(opened.close(), 5_000);
      await bounded(ownQueue.close().catch(() => undefined), 2_000);
      connection.disconnect();
      // Last, so probes keep answering while jobs drain.
      await ops?.close();
    },
  };
}
