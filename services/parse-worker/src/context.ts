import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Config } from '@sitelens/config';
import { BrowserPool, renderHtml } from '@sitelens/browser';
import { createModelClient, type ModelClient } from '@sitelens/extract';
import { QUEUES, bounded } from '@sitelens/contracts';
import type { QueueEvents } from 'bullmq';
import { createJobGate, createQueueEvents, createRedis, createScreenshotQueue, type ScreenshotGate, type ScreenshotQueue } from '@sitelens/queue';
import { createBlobStore, localSecret, type BlobStore } from '@sitelens/storage';
import type { Logger, Metrics } from '@sitelens/telemetry';
import {
  RobotsCache,
  createContentWorkerPool,
  createSafeFetcher,
  createUrlGuard,
  type ContentWorkerPool,
  type Renderer,
  type WebDeps,
} from '@sitelens/web';

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
  store: BlobStore;
  screenshotQueue: ScreenshotQueue;
  /** Where watch screenshots are added: the screenshot queue's fair share. */
  screenshotGate: ScreenshotGate;
  /** The screenshot queue's events, to follow a watch's screenshot to its end. */
  screenshotEvents: QueueEvents;
  /** The Chromium pool behind `web.renderer`; it launches on first use. */
  browser: BrowserPool;
  /** HMAC key for outbound webhooks (crawl completion, watch notifications). */
  webhookSecret: string;
}

export interface ContextOptions {
  /** Content extraction threads: the compiled worker script is used unless tests give one. */
  contentWorkers?: { size?: number; workerScript?: string; workerData?: unknown };
}

export interface OpenedContext {
  context: ParseWorkerContext;
  close(): Promise<void>;
}

export async function openParseWorkerContext(config: Config, logger: Logger, metrics: Metrics, options: ContextOptions = {}): Promise<OpenedContext> {
  const allowPrivate = config.allowPrivateUrls;
  const fetcher = createSafeFetcher({ allowPrivate, connectionsPerOrigin: config.crawlConcurrency });
  const browser = new BrowserPool(config.browser, { logger, metrics });
  const urlGuard = allowPrivate ? undefined : createUrlGuard({ allowPrivate });
  const renderer: Renderer = {
    render: (url, { timeoutMs, signal }) => renderHtml(browser, url, { timeoutMs, signal, urlGuard }),
  };
  const content: ContentWorkerPool = createContentWorkerPool(options.contentWorkers);
  const web: WebDeps = {
    allowPrivate,
    logger,
    renderer,
    fetchImpl: fetcher.fetch,
    robots: new RobotsCache({ fetch: fetcher.fetch }),
    processor: content,
  };
  const model = createModelClient(config.llm, { logger, metrics });
  const store = await createBlobStore(config.storage);
  const webhookSecret = config.webhookSecret ?? (await localSecret(path.resolve(config.storage.dataDir), config.storage.signingSecret));
  const redis = createRedis(config.redis.url, 'client');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const screenshotQueue = createScreenshotQueue({ connection: redis, prefix: config.redis.prefix, retentionMs: config.jobRetentionMs });
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
      store,
      screenshotQueue,
      screenshotGate: createJobGate(redis, screenshotQueue, { prefix: config.redis.prefix, queue: QUEUES.screenshot }),
      screenshotEvents,
      browser,
      webhookSecret,
    },
    async close() {
      await browser.close({ drainMs: 1_000 });
      await content.close();
      await fetcher.close();
      await screenshotQueue.close().catch(() => undefined);
      await bounded(screenshotEvents.close().catch(() => undefined), 2_000);
      eventsConnection.disconnect();
      redis.disconnect();
    },
  };
}
