import { Queue, QueueEvents, Worker, type ConnectionOptions, type Processor, type WorkerOptions } from 'bullmq';
import {
  QUEUES,
  bounded,
  type ParseQueueJobName,
  type ParseQueuePayload,
  type QueueName,
  type ScreenshotJobName,
  type ScreenshotJobPayload,
  type ScreenshotJobResult,
} from '@sitelens/contracts';
import type { JobGate } from './fair-share/job-gate';

export type ScreenshotQueue = Queue<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;

export type ParseQueue = Queue<ParseQueuePayload, unknown, ParseQueueJobName>;

/** Where each queue's jobs are added and run: its fair share (JobGate). */
export type ScreenshotGate = JobGate<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;
export type ParseGate = JobGate<ParseQueuePayload, unknown, ParseQueueJobName>;

export interface QueueSettings {
  connection: ConnectionOptions;
  prefix: string;
  /** How long finished jobs are kept, in ms (JOB_RETENTION). */
  retentionMs: number;
  /** Approximate cap on the queue's event stream (QUEUE_EVENTS_MAX_LEN; default 1,000). */
  eventsMaxLen?: number;
}

/** BullMQ keeps 10,000 events per queue by default; progress events make that a lot of Redis. */
export const DEFAULT_EVENTS_MAX_LEN = 1_000;

/**
 * The event stream's cap. BullMQ stores it in the queue's meta, where the workers' scripts read
 * it, so every Queue opened on a queue name must say the same.
 */
function streamOptions(settings: QueueSettings) {
  return { events: { maxLen: settings.eventsMaxLen ?? DEFAULT_EVENTS_MAX_LEN } };
}

/**
 * Default options for every job: finished jobs kept for the retention period; retries only on
 * infrastructure errors (processors throw UnrecoverableError for everything else).
 */
export function defaultJobOptions(retentionMs: number) {
  const age = Math.max(1, Math.round(retentionMs / 1000));
  return {
    attempts: 3,
    backoff: { type: 'exponential' as const, delay: 1_000 },
    removeOnComplete: { age },
    removeOnFail: { age },
  };
}

/** Every Queue handle the service opens, so all agree on the stream cap and the job defaults. */
export function openQueue<D, R, N extends string>(queue: QueueName, settings: QueueSettings): Queue<D, R, N> {
  return new Queue<D, R, N>(queue, {
    connection: settings.connection,
    prefix: settings.prefix,
    streams: streamOptions(settings),
    defaultJobOptions: defaultJobOptions(settings.retentionMs),
  });
}

export function createScreenshotQueue(settings: QueueSettings): ScreenshotQueue {
  return openQueue<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(QUEUES.screenshot, settings);
}

export function createParseQueue(settings: QueueSettings): ParseQueue {
  return openQueue<ParseQueuePayload, unknown, ParseQueueJobName>(QUEUES.parse, settings);
}

export function createQueueEvents(name: QueueName, settings: Pick<QueueSettings, 'connection' | 'prefix'>): QueueEvents {
  return new QueueEvents(name, { connection: settings.connection, prefix: settings.prefix });
}

export function createWorker<P, R, N extends string>(
  name: QueueName,
  processor: Processor<P, R, N>,
  settings: Pick<QueueSettings, 'connection' | 'prefix'>,
  options: Omit<WorkerOptions, 'connection' | 'prefix'> = {},
): Worker<P, R, N> {
  return new Worker<P, R, N>(name, processor, {
    connection: settings.connection,
    prefix: settings.prefix,
    // A worker that dies mid-job loses its lock after this long and the job is handed to another.
    lockDuration: 30_000,
    stalledInterval: 15_000,
    maxStalledCount: 2,
    ...options,
  });
}

/** A BullMQ Queue, QueueEvents or Worker: what `closeHandle` needs of it. */
export interface ClosableHandle {
  waitUntilReady(): Promise<unknown>;
  close(): Promise<void>;
}

/** Waits (bounded) until a handle's connection start-up is over, so closing it cannot orphan it (see closeHandle). */
export async function whenStarted(handle: Pick<ClosableHandle, 'waitUntilReady'>, timeoutMs = 2_000): Promise<void> {
  await bounded(
    handle.waitUntilReady().catch(() => undefined),
    timeoutMs,
  );
}

/**
 * Closes a BullMQ handle without leaving its start-up behind. BullMQ's close removes its
 * connection's error listeners at once, even while the connection's start-up (a ready wait and an
 * INFO) is still running; when that start-up then fails (the shared client is disconnected next),
 * its error is emitted with no listener and becomes an uncaught exception. So the start-up is
 * awaited first. Both waits are bounded: with Redis unreachable neither would ever end.
 */
export async function closeHandle(handle: ClosableHandle, timeoutMs = 2_000): Promise<void> {
  await whenStarted(handle, timeoutMs);
  await bounded(
    handle.close().catch(() => undefined),
    timeoutMs,
  );
}
