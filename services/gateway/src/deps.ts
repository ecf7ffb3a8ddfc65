import { setMaxListeners } from 'node:events';
import type { Redis } from 'ioredis';
import type { Queue, QueueEvents } from 'bullmq';
import type { Config } from '@sitelens/config';
import { QUEUES } from '@sitelens/contracts';
import {
  closeHandle,
  createJobGate,
  createParseQueue,
  createQueueEvents,
  createRedis,
  createScreenshotQueue,
  type ParseGate,
  type ParseQueue,
  type ScreenshotGate,
  type ScreenshotQueue,
} from '@sitelens/queue';
import { createSchemaChecker, type SchemaChecker, type SchemaCheckerOptions } from '@sitelens/parse-input';
import { createBlobStore, type BlobStore } from '@sitelens/storage';
import type { Logger, Metrics } from '@sitelens/telemetry';

const CLOSE_TIMEOUT_MS = 2_000;

/** Everything a route may use, built once by the composition root (`main.ts`). */
export interface GatewayDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Fail-fast Redis client for request paths. */
  redis: Redis;
  queues: {
    screenshot: ScreenshotQueue;
    parse: ParseQueue;
  };
  /** Where jobs are added: each queue's fair share (a key's jobs beyond its plan's cap are parked). */
  gates: {
    screenshot: ScreenshotGate;
    parse: ParseGate;
  };
  /** Event streams for long-polling and progress, one per queue. */
  events: {
    screenshot: QueueEvents;
    parse: QueueEvents;
  };
  /** Every queue a job id may live in, for lookups by id. */
  allQueues: readonly Queue[];
  store: BlobStore;
  /** Compiles user JSON schemas in a worker thread, off the event loop. */
  schemaChecker: SchemaChecker;
  startedAt: number;
  version: string;
  /** Aborts when the gateway starts shutting down: long-polls answer at once with what they have. */
  stopping: AbortSignal;
}

export interface BuiltGatewayDeps {
  deps: GatewayDeps;
  /** Fires `deps.stopping`, before the server closes, so open long-polls end rather than hold it. */
  stop(): void;
  /** Closes the queues, event streams and connections it opened. */
  close(): Promise<void>;
}

/**
 * Opens the gateway's connections, queues and event streams and the blob store (unless one is
 * given). Shared by the composition root and the test harness so both wire the same pieces.
 */
export async function buildGatewayDeps(
  config: Config,
  options: { logger: Logger; metrics: Metrics; version: string; store?: BlobStore; schemaChecker?: SchemaCheckerOptions },
): Promise<BuiltGatewayDeps> {
  const { logger } = options;
  const redis = createRedis(config.redis.url, 'client');
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection problem'));
  const eventsConnection = createRedis(config.redis.url, 'worker');
  eventsConnection.on('error', () => undefined);
  const settings = {
    connection: redis,
    prefix: config.redis.prefix,
    retentionMs: config.jobRetentionMs,
    eventsMaxLen: config.redis.eventsMaxLen,
  };
  const screenshot = createScreenshotQueue(settings);
  const parse = createParseQueue(settings);
  for (const queue of [screenshot, parse] as Queue[]) {
    queue.on('error', (error) => logger.warn({ err: error.message, queue: queue.name }, 'queue problem'));
  }
  const eventSettings = { connection: eventsConnection, prefix: config.redis.prefix };
  const events = { screenshot: createQueueEvents(QUEUES.screenshot, eventSettings), parse: createQueueEvents(QUEUES.parse, eventSettings) };
  for (const stream of Object.values(events)) stream.on('error', () => undefined);
  const store = options.store ?? (await createBlobStore(config.storage));
  const stopping = new AbortController();
  // Every open long-poll and streamed parse listens for the shutdown (one listener each, removed
  // when it ends): a busy gateway holds hundreds at once, which is not the leak Node warns of at 10.
  setMaxListeners(0, stopping.signal);
  const schemaChecker = createSchemaChecker(options.schemaChecker);

  const deps: GatewayDeps = {
    config,
    logger,
    metrics: options.metrics,
    redis,
    queues: { screenshot, parse },
    gates: {
      screenshot: createJobGate(redis, screenshot, { prefix: config.redis.prefix, queue: QUEUES.screenshot }),
      parse: createJobGate(redis, parse, { prefix: config.redis.prefix, queue: QUEUES.parse }),
    },
    events,
    allQueues: [screenshot as unknown as Queue, parse as unknown as Queue],
    store,
    schemaChecker,
    startedAt: Date.now(),
    version: options.version,
    stopping: stopping.signal,
  };
  return {
    deps,
    stop: () => stopping.abort(),
    async close() {
      stopping.abort();
      // Bounded: with Redis gone, BullMQ's close would wait for a connection that never comes.
      await Promise.all([...Object.values(events), screenshot, parse].map((handle) => closeHandle(handle, CLOSE_TIMEOUT_MS)));
      await schemaChecker.close();
      redis.disconnect();
      eventsConnection.disconnect();
    },
  };
}
