import type { Worker } from 'bullmq';
import { workerOpsAddress, type Config } from '@sitelens/config';
import { QUEUES, bounded, type ScreenshotJobName, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import { captureScreenshot, openGuardedBrowser, type BrowserPool, type GuardedBrowserDeps } from '@sitelens/browser';
import { ScreenshotCache, createRedis, createWebhookSecrets, startJobWorker, whenStarted } from '@sitelens/queue';
import { createBlobStore, localWebhookSecret, scheduleSweep } from '@sitelens/storage';
import { createMetrics, measureJob, startOpsServer, type Logger, type Metrics, type OpsServer } from '@sitelens/telemetry';
import { SCREENSHOT_KEY_PREFIX, createScreenshotProcessor } from './process-screenshot';
import { isFinalFailure, notifyScreenshotWebhook } from './screenshot-webhook';

export interface RunningScreenshotWorker {
  worker: Worker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;
  pool: BrowserPool;
  /** Probes and metrics listener (OPS_HTTP_ADDR); absent with ROLE=all. */
  ops?: OpsServer;
  close(): Promise<void>;
}

/**
 * Composition root of the screenshot worker: one warm Chromium, a BullMQ worker that runs as many
 * jobs as the pool has page slots (and holds SCREENSHOT_PREFETCH more, ready), and the blob store
 * the images go to.
 */
export async function startScreenshotWorker(
  config: Config,
  logger: Logger,
  metrics: Metrics = createMetrics({ service: 'screenshot-worker' }),
  /** Test seams: name resolution of the egress proxy, extra Chromium flags. */
  browserDeps: Pick<GuardedBrowserDeps, 'resolve' | 'extraArgs'> = {},
): Promise<RunningScreenshotWorker> {
  const store = await createBlobStore(config.storage);
  const browser = await openGuardedBrowser(config, { logger, metrics, ...browserDeps });
  const { pool, urlGuard } = browser;
  await pool.start();

  // After a job: its result kept for identical requests (cache_ttl), and webhook_url POSTed,
  // signed with its owner's secret. Both on a client connection of their own: the worker's blocks
  // while it waits for jobs.
  const client = createRedis(config.redis.url, 'client');
  client.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const cache = new ScreenshotCache(client, config.redis.prefix);
  const webhooks = { config, store, logger, secrets: createWebhookSecrets(config, client, await localWebhookSecret(config)) };
  const processor = createScreenshotProcessor({
    store,
    // Kept before the job completes, so an identical request right after its end finds it.
    remember: (job, result) => {
      const wanted = job.data.cache;
      return wanted ? cache.put(wanted.key, result, wanted.ttlSeconds, Math.floor(config.jobRetentionMs / 1000)) : Promise.resolve();
    },
    logger,
    recordPhase: (phase, ms) => metrics.screenshotPhases.observe({ phase }, ms / 1000),
    capture: (request, { signal, logger: jobLogger, phases }) =>
      captureScreenshot(pool, request, {
        signal,
        logger: jobLogger,
        phases,
        fullPageMaxHeight: config.browser.fullPageMaxHeight,
        maxPixels: config.browser.maxPixels,
        urlGuard,
      }),
  });

  const connection = createRedis(config.redis.url, 'worker');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  // BullMQ renews each job's lock while this process lives; a killed worker's jobs go to another.
  const jobs = startJobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(
    QUEUES.screenshot,
    {
      connection,
      prefix: config.redis.prefix,
      retentionMs: config.jobRetentionMs,
      eventsMaxLen: config.redis.eventsMaxLen,
      concurrency: config.browser.concurrency,
      // The next job is ready when a page slot frees: Chromium does not wait for the finished job's
      // completion round trip and the next pickup.
      prefetch: config.browser.prefetch,
      queueTimeoutMs: config.jobQueueTimeoutMs,
    },
    { process: processor, measure: (job, work) => measureJob(metrics, QUEUES.screenshot, job.name, work) },
  );
  const { worker } = jobs;
  worker.on('error', (error) => logger.warn({ err: error.message }, 'screenshot worker problem'));
  worker.on('completed', (job, result) => notifyScreenshotWebhook(job, { status: 'completed', result }, webhooks));
  worker.on('failed', (job, error) => {
    if (job && isFinalFailure(job, error)) notifyScreenshotWebhook(job, { status: 'failed', failedReason: job.failedReason }, webhooks);
  });

  const opsAddress = workerOpsAddress(config);
  const ops = opsAddress
    ? await startOpsServer({
        address: opsAddress,
        registry: metrics.registry,
        logger,
        readiness: {
          redis: () => connection.status === 'ready',
          worker: () => worker.isRunning(),
          browser: () => pool.stats().pid !== undefined,
        },
      })
    : undefined;
  const stopSweep = scheduleSweep(store, {
    prefix: SCREENSHOT_KEY_PREFIX,
    maxAgeMs: config.jobRetentionMs,
    logger,
  });
  logger.info({ concurrency: config.browser.concurrency, prefetch: config.browser.prefetch }, 'screenshot worker started');

  return {
    worker,
    pool,
    ops,
    async close() {
      stopSweep();
      // Stop taking jobs and let running ones finish within the deadline; what is left is handed
      // back (its lock lapses and another worker takes it as stalled).
      await whenStarted(worker);
      const drained = worker.close();
      await bounded(drained, config.shutdownTimeoutMs);
      await browser.close({ drainMs: 1_000 });
      // Captures cut short by closing the browser fail as retryable, which BullMQ records through
      // Redis: give that a moment. With Redis unreachable the close never resolves (it waits on
      // its reconnecting fetch loop; a second close returns the same promise), so the wait is
      // bounded and the connection dropped.
      await bounded(
        drained.catch(() => undefined),
        2_000,
      );
      await jobs.close();
      connection.disconnect();
      client.disconnect();
      await ops?.close();
    },
  };
}
