import type { PlanName } from './plans';
import type { ScreenshotCreateRequest, ScreenshotMetadata } from './screenshot';
import type { WatchChangeType, WatchNotificationOutcome, WatchTrigger } from './watch';
import type { ScrapeQuery, ScrapeResponse } from './scrape';
import type { CrawlData, CrawlJobRequest } from './crawl';
import type { MapJobRequest, MapResponse } from './map';
import type { BatchData, BatchScrapeRequest } from './batch';
import type { OutputFormat } from './parse';

/**
 * Queue topology. One queue per worker service so each can be scaled on its own waiting list
 * (KEDA reads `<prefix>:<queue>:wait`). Job names tell the kinds of work apart inside a queue.
 */
export const QUEUES = {
  screenshot: 'screenshot',
  parse: 'parse',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOB_TYPES = ['screenshot', 'crawl', 'scrape', 'parse', 'watch', 'map', 'batch'] as const;
export type JobType = (typeof JOB_TYPES)[number];

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
  /** The owner's plan in hosted mode: its `runningJobs` caps the owner's jobs running at once. */
  plan?: PlanName;
}

export interface ScreenshotJobPayload extends JobEnvelope {
  request: ScreenshotCreateRequest;
  /** The gateway's origin as the client saw it: the webhook's signed image URL points there. */
  origin?: string;
  /** `cache_ttl`: where the worker keeps the result for identical requests, and for how long. */
  cache?: { key: string; ttlSeconds: number };
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
export type ParseQueueJobName = 'scrape' | 'crawl' | 'parse' | 'watch' | 'map' | 'batch';

export interface ParseQueuePayload extends JobEnvelope {
  [field: string]: unknown;
}

/**
 * One kind's payload as a plain object type (the envelope plus its own fields). Interfaces are not
 * assignable to ParseQueuePayload's index signature; a mapped type is, so `queue.add` takes it.
 */
export type ParseQueueJobPayload<Fields extends object> = { [K in keyof (JobEnvelope & Fields)]: (JobEnvelope & Fields)[K] };

/**
 * Scrape jobs (job name `scrape`): the gateway enqueues the validated query and waits for the
 * result, the GET /v1/scrape body. `timeoutSeconds` is the query's `timeout`, counted from
 * `acceptedAt`: the worker stops there, since the client is no longer waiting. `linkMapPages`
 * bounds the pages a link map (format=links, depth > 1) visits; the gateway applies the plan cap.
 */
export type ScrapeJobPayload = ParseQueueJobPayload<{ request: ScrapeQuery; linkMapPages: number }>;
export type ScrapeJobResult = ScrapeResponse;

/**
 * Map jobs (job name `map`): the gateway waits for the answer, the POST /v1/map body; `limit` and
 * `max_pages` are already capped by the plan.
 */
export type MapJobPayload = ParseQueueJobPayload<{ request: MapJobRequest }>;
export type MapJobResult = MapResponse;

/** Batch scrape jobs (job name `batch`): progress is `BatchProgress`, the result `BatchData`. */
export type BatchJobPayload = ParseQueueJobPayload<{ request: BatchScrapeRequest; concurrency: number }>;
export type BatchJobResult = BatchData;

/**
 * Crawl jobs (job name `crawl`): progress is `CrawlProgress` while running, the result is the
 * lookup's `data`. `link_limit` is already capped by the plan.
 */
export type CrawlJobPayload = ParseQueueJobPayload<{ request: CrawlJobRequest }>;
export type CrawlJobResult = CrawlData;

/**
 * Parse jobs (job name `parse`): the gateway validates the request and enqueues it; the parse
 * worker reports each stage and each extracted page as job progress (`ParseJobProgress`, the spec
 * 2.5 chunk) and returns the full response body (`ParseJobResult`).
 */
export const PARSE_WORKFLOW_STATUSES = ['analyzing', 'scraping', 'crawling', 'extracting', 'formatting', 'completed', 'failed'] as const;
export type ParseWorkflowStatus = (typeof PARSE_WORKFLOW_STATUSES)[number];

/** The validated request as the worker needs it. `output_format` unset lets prompt words choose. */
export interface ParseJobRequest {
  prompt: string;
  schema?: Record<string, unknown>;
  output_format?: OutputFormat;
  max_depth: number;
  max_pages: number;
}

export type ParseJobPayload = ParseQueueJobPayload<{ request: ParseJobRequest }>;

/** Data extracted from one page, as streamed in `partial_results`. */
export interface ParsePageResult {
  url: string;
  data: unknown;
}

/** One progress report (and streamed chunk): a stage starting, a page collected or extracted. */
export interface ParseJobProgress {
  success: true;
  workflow_status: ParseWorkflowStatus;
  pages_processed: number;
  total_pages?: number;
  partial_results: ParsePageResult[];
}

export interface ParseJobResult {
  success: true;
  /** Object/array for json, text for csv and markdown. */
  data: unknown;
  workflow_status: 'completed';
  output_format: OutputFormat;
  pages_processed: number;
  total_pages: number;
  /** Milliseconds the worker spent; the gateway reports the request's own time instead. */
  execution_time: number;
  warnings: string[];
  /** Pages that could not be fetched and were skipped. */
  errors: { url: string; error: string }[];
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** Redis key the gateway sets when a parse's client goes away; the worker polls it and stops. */
export function parseCancelKey(prefix: string, jobId: string): string {
  return `${prefix}:parse:cancel:${jobId}`;
}

/** A watch check: the watch is read from its store when the job runs, so edits apply at once. */
export type WatchJobPayload = ParseQueueJobPayload<{ watchId: string; trigger: WatchTrigger }>;

export interface WatchJobResult {
  watchId: string;
  /** Set when the check ran and stored a result. */
  resultId?: string;
  has_changed?: boolean;
  change_type?: WatchChangeType | null;
  /** Why the check did not run: the watch is gone, paused (scheduled runs only), or its key's daily quota is spent. */
  skipped?: 'deleted' | 'paused' | 'quota';
  notifications?: WatchNotificationOutcome;
}
