import type { ScreenshotCreateRequest, ScreenshotMetadata } from './screenshot';

/**
 * Queue topology. One queue per worker service so each can be scaled on its own waiting list
 * (KEDA reads `<prefix>:<queue>:wait`). Job names tell the kinds of work apart inside a queue.
 */
export const QUEUES = {
  screenshot: 'screenshot',
  parse: 'parse',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOB_TYPES = ['screenshot', 'crawl', 'scrape', 'parse', 'watch'] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** The queue each job type runs on. */
export const QUEUE_OF: Record<JobType, QueueName> = {
  screenshot: QUEUES.screenshot,
  crawl: QUEUES.parse,
  scrape: QUEUES.parse,
  parse: QUEUES.parse,
  watch: QUEUES.parse,
};

/** Seconds a job may stay unfinished beyond its own timeout before it is reported failed. */
export const JOB_DEADLINE_MARGIN_SECONDS = 30;

/** Fields every payload carries so any process can judge the job's deadline without the request. */
export interface JobEnvelope {
  /** Seconds the work itself may take. */
  timeoutSeconds: number;
  /** Epoch ms when the gateway accepted the job. */
  acceptedAt: number;
  /** Owner (API key id) in hosted mode; absent locally. */
  owner?: string;
}

export interface ScreenshotJobPayload extends JobEnvelope {
  request: ScreenshotCreateRequest;
}

export interface ScreenshotJobResult {
  /** Storage key of the image. */
  key: string;
  contentType: string;
  metadata: ScreenshotMetadata;
}

export interface QueueJobMap {
  screenshot: { name: 'screenshot'; payload: ScreenshotJobPayload; result: ScreenshotJobResult };
}

export type ScreenshotJobName = QueueJobMap['screenshot']['name'];

/**
 * The parse queue carries several kinds of work, told apart by job name. Each kind adds its
 * payload/result here as it lands; the worker dispatches on the name.
 */
export type ParseQueueJobName = 'scrape' | 'crawl' | 'parse' | 'watch';

export interface ParseQueuePayload extends JobEnvelope {
  [field: string]: unknown;
}
