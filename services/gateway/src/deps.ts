import type { Redis } from 'ioredis';
import type { Config } from '@sitelens/config';
import type { ScreenshotQueue } from '@sitelens/queue';
import type { BlobStore } from '@sitelens/storage';
import type { Logger, Metrics } from '@sitelens/telemetry';
import type { Queue, QueueEvents } from 'bullmq';

/** Everything a route may use, built once by the composition root (`main.ts`). */
export interface GatewayDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** Fail-fast Redis client for request paths. */
  redis: Redis;
  queues: {
    screenshot: ScreenshotQueue;
  };
  /** Event streams for long-polling, one per queue (absent in minimal test apps). */
  events: {
    screenshot?: QueueEvents;
  };
  /** Every queue a job id may live in, for lookups by id. */
  allQueues: readonly Queue[];
  store: BlobStore;
  startedAt: number;
  version: string;
}
