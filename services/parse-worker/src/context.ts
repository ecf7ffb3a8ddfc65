import type { Redis } from 'ioredis';
import type { Config } from '@sitelens/config';
import { openGuardedBrowser, renderHtml, type BrowserPool, type GuardedBrowserDeps } from '@sitelens/browser';
import { urlPolicyOf } from '@sitelens/egress';
import { createModelClient, type ModelClient, type ModelClientDeps } from '@sitelens/extract';
import { createSchemaChecker, type SchemaChecker, type SchemaCheckerOptions } from '@sitelens/parse-input';
import { CRAWL_LIMITS, QUEUES } from '@sitelens/contracts';
import { PAGE_CACHE_PREFIX } from './handlers/page-cache';
import type { QueueEvents } from 'bullmq';
import {
  closeHandle,
  createJobGate,
  createQueueEvents,
  createRedis,
  createScreenshotQueue,
  type ScreenshotGate,
  type ScreenshotQueue,
} from '@sitelens/queue';
import { RESULTS_KEY_PREFIX, createBlobStore, localWebhookSecret, scheduleSweep, type BlobStore } from '@sitelens/storage';
import type { Logger, Metrics } from '@sitelens/telemetry';
import {
  RobotsCache,
  createContentWorkerPool,
  createSafeFetcher,
  type ContentWorkerPool,
  type Renderer,
  type WebDeps,
} from '@sitelens/web';
import { CrawlCancellations, createWebhookSecrets, type WebhookSecrets } from '@sitelens/queue';

/**
 * What every parse-queue handler works with, built once per process by the composition root and
 * closed on shutdown: the web layer's shared fetcher, robots cache, content threads and renderer,
 * the model client, the blob store, a fail-fast Redis client and the screenshot queue.
 */
export interface ParseWorkerContext {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Fail-fast Redis client for the handlers' own keys (caches, watches), under QUEUE_PREFIX. */
  redis: Redis;
  web: WebDeps;
  model: ModelClient;
  /** Compiles user schemas and checks answers against them in a thread, under a deadline. */
  schemaChecker: SchemaChecker;
  store: BlobStore;
  screenshotQueue: ScreenshotQueue;
  /** Where watch screenshots are added: the screenshot queue's fair share. */
  screenshotGate: ScreenshotGate;
  /** The screenshot queue's events, to follow a watch's screenshot to its end. */
  screenshotEvents: QueueEvents;
  /** The Chromium pool behind `web.renderer`; it launches on first use. */
  browser: BrowserPool;
  /** HMAC keys of outbound webhooks (crawl completion, watch notifications), by the job's owner. */
  webhookSecrets: WebhookSecrets;
  /** Cancellations of crawls (DELETE /v1/crawl/<job_id>), heard from the gateway. */
  crawlCancels: CrawlCancellations;
}

export interface ContextOptions {
  /** Content extraction threads: the compiled worker script is used unless tests give one. */
  contentWorkers?: { size?: number; workerScript?: string; workerData?: unknown; timeoutMs?: number };
  /** Name resolution of the fetcher and the browser's egress proxy (tests give names to fixture hosts). */
  resolve?: GuardedBrowserDeps['resolve'];
  /** More Chromium flags (tests map fixture host names with --host-resolver-rules). */
  browserArgs?: readonly string[];
  /** The schema-check thread: the compiled worker script is used unless tests give one. */
  schemaChecker?: SchemaCheckerOptions;
  /** The model client's jitter and wait between attempts (tests record them). */
  model?: Pick<ModelClientDeps, 'random' | 'sleep'>;
}

export interface OpenedContext {
  context: ParseWorkerContext;
  close(): Promise<void>;
}

export async function openParseWorkerContext(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  options: ContextOptions = {},
): Promise<OpenedContext> {
  const allowPrivate = config.allowPrivateUrls;
  const policy = urlPolicyOf(config, logger);
  const fetcher = createSafeFetcher({ ...policy, resolve: options.resolve, connectionsPerOrigin: config.crawlConcurrency });
  const guarded = await openGuardedBrowser(config, { logger, metrics, resolve: options.resolve, extraArgs: options.browserArgs });
  const { pool: browser, urlGuard } = guarded;
  const renderer: Renderer = {
    render: (url, options) => renderHtml(browser, url, { ...options, urlGuard }),
  };
  const content: ContentWorkerPool = createContentWorkerPool({ timeoutMs: config.contentTimeoutMs, ...options.contentWorkers });
  const web: WebDeps = {
    allowPrivate,
    egress: { allow: policy.allow, onRefused: policy.onRefused },
    logger,
    renderer,
    fetchImpl: fetcher.fetch,
    robots: new RobotsCache({ fetch: fetcher.fetch }),
    processor: content,
    documentMaxBytes: config.documentMaxBytes,
  };
  const model = createModelClient(config.llm, { logger, metrics, ...options.model });
  const schemaChecker = createSchemaChecker(options.schemaChecker);
  const store = await createBlobStore(config.storage);
  const ownerlessSecret = await localWebhookSecret(config);
  const redis = createRedis(config.redis.url, 'client');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const webhookSecrets = createWebhookSecrets(config, redis, ownerlessSecret);
  const crawlCancels = new CrawlCancellations(createRedis(config.redis.url, 'worker'), redis, config.redis.prefix, logger);
  // Job results expire with their jobs (JOB_RETENTION).
  // Pages kept for crawls' max_age go after a week, the longest max_age.
  const stopPageSweep = scheduleSweep(store, { prefix: PAGE_CACHE_PREFIX, maxAgeMs: CRAWL_LIMITS.maxAgeSeconds * 1000, logger });
  const stopSweep = scheduleSweep(store, {
    prefix: RESULTS_KEY_PREFIX,
    maxAgeMs: config.jobRetentionMs,
    logger,
  });
  const screenshotQueue = createScreenshotQueue({
    connection: redis,
    prefix: config.redis.prefix,
    retentionMs: config.jobRetentionMs,
    eventsMaxLen: config.redis.eventsMaxLen,
  });
  screenshotQueue.on('error', (error) => logger.warn({ err: error.message }, 'screenshot queue problem'));
  const eventsConnection = createRedis(config.redis.url, 'worker');
  eventsConnection.on('error', () => undefined);
  const screenshotEvents = createQueueEvents(QUEUES.screenshot, { connection: eventsConnection, prefix: config.redis.prefix });
  screenshotEvents.on('error', () => undefined);

  return {
    context: {
      config,
      logger,
      metrics,
      redis,
      web,
      model,
      schemaChecker,
      store,
      screenshotQueue,
      screenshotGate: createJobGate(redis, screenshotQueue, { prefix: config.redis.prefix, queue: QUEUES.screenshot }),
      screenshotEvents,
      browser,
      webhookSecrets,
      crawlCancels,
    },
    async close() {
      stopSweep();
      stopPageSweep();
      await guarded.close({ drainMs: 1_000 });
      await content.close();
      await schemaChecker.close();
      await fetcher.close();
      await Promise.all([closeHandle(screenshotQueue), closeHandle(screenshotEvents)]);
      eventsConnection.disconnect();
      await crawlCancels.close();
      redis.disconnect();
    },
  };
}
