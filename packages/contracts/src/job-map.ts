/**
 * The job map: every kind of job by name, with its queue, payload, result and time budget. The
 * gateway, both workers and whoever follows a job read it from here, so a job's envelope and its
 * deadlines are worked out in one place.
 */
import { crawlTimeoutSeconds } from './crawl';
import {
  JOB_DEADLINE_MARGIN_SECONDS,
  QUEUES,
  type CrawlJobPayload,
  type CrawlJobResult,
  type MapJobPayload,
  type BatchJobPayload,
  type BatchJobResult,
  type MapJobResult,
  type JobEnvelope,
  type ParseJobPayload,
  type ParseJobResult,
  type ScrapeJobPayload,
  type ScrapeJobResult,
  type ScreenshotJobPayload,
  type ScreenshotJobResult,
  type WatchJobPayload,
  type WatchJobResult,
} from './queues';
import { screenshotJobSeconds } from './screenshot';
import { WATCH_LIMITS } from './watch';
import { MAP_LIMITS } from './map';
import { batchTimeoutSeconds } from './batch';

/**
 * What a job returns to its queue in place of a large result: where the result is in the blob
 * store (Redis keeps the reference only; `@sitelens/storage` saves and loads it).
 */
export interface StoredResultRef {
  stored_result: { key: string; bytes: number };
}

/**
 * `result` is what the job hands back through its queue; `loaded` is what a client sees once a
 * stored result is read back (the same for jobs whose results are small enough to keep inline).
 */
export interface JobMap {
  screenshot: { queue: typeof QUEUES.screenshot; payload: ScreenshotJobPayload; result: ScreenshotJobResult; loaded: ScreenshotJobResult };
  scrape: { queue: typeof QUEUES.parse; payload: ScrapeJobPayload; result: StoredResultRef; loaded: ScrapeJobResult };
  crawl: { queue: typeof QUEUES.parse; payload: CrawlJobPayload; result: StoredResultRef; loaded: CrawlJobResult };
  parse: { queue: typeof QUEUES.parse; payload: ParseJobPayload; result: StoredResultRef; loaded: ParseJobResult };
  watch: { queue: typeof QUEUES.parse; payload: WatchJobPayload; result: WatchJobResult; loaded: WatchJobResult };
  map: { queue: typeof QUEUES.parse; payload: MapJobPayload; result: StoredResultRef; loaded: MapJobResult };
  batch: { queue: typeof QUEUES.parse; payload: BatchJobPayload; result: StoredResultRef; loaded: BatchJobResult };
}

export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N]['payload'];
export type JobResult<N extends JobName> = JobMap[N]['result'];
export type LoadedJobResult<N extends JobName> = JobMap[N]['loaded'];
/** A job's own fields: its payload without the envelope, which `enqueue` adds. */
export type JobFields<N extends JobName> = Omit<JobPayload<N>, keyof JobEnvelope>;
/** Who a job belongs to (hosted mode): empty locally. */
export type JobOwner = Pick<JobEnvelope, 'owner' | 'plan'>;

/** What a budget may depend on besides the job's own fields: the model client's settings. */
export interface BudgetContext {
  llm: { concurrency: number; timeoutMs: number; maxRetries: number };
}

/** Time for collecting pages and formatting, on top of the model's share. */
const PARSE_COLLECTION_SECONDS = 120;

/**
 * A parse job's time budget: collection, plus every wave of concurrent model calls taking all its
 * attempts (PARSE_TIMEOUT each) and the backoff between them. Generous on purpose: it only stops
 * work that is stuck, and the worker enforces it.
 */
export function parseJobTimeoutSeconds(llm: BudgetContext['llm'], maxPages: number): number {
  const waves = Math.ceil(maxPages / Math.max(1, llm.concurrency));
  const attemptSeconds = Math.ceil(llm.timeoutMs / 1000);
  const backoffSeconds = 2 ** llm.maxRetries;
  return PARSE_COLLECTION_SECONDS + waves * (attemptSeconds * (llm.maxRetries + 1) + backoffSeconds);
}

interface JobKind<N extends JobName> {
  queue: JobMap[N]['queue'];
  /** Seconds the work itself may take (the envelope's `timeoutSeconds`). */
  budgetSeconds(fields: JobFields<N>, context: BudgetContext | undefined): number;
  /**
   * How long past its budget a client waiting for the job's end keeps waiting: the queue and the
   * answer's trip back. A scrape answers synchronously within its own `timeout`, so almost none.
   */
  followMarginSeconds: number;
}

export const JOB_KINDS: { readonly [N in JobName]: JobKind<N> } = {
  screenshot: {
    queue: QUEUES.screenshot,
    budgetSeconds: ({ request }) => screenshotJobSeconds(request),
    followMarginSeconds: JOB_DEADLINE_MARGIN_SECONDS,
  },
  scrape: { queue: QUEUES.parse, budgetSeconds: ({ request }) => request.timeout, followMarginSeconds: 2 },
  crawl: {
    queue: QUEUES.parse,
    budgetSeconds: ({ request }) => crawlTimeoutSeconds(request.link_limit),
    followMarginSeconds: JOB_DEADLINE_MARGIN_SECONDS,
  },
  parse: {
    queue: QUEUES.parse,
    budgetSeconds: ({ request }, context) => {
      if (!context) throw new Error('A parse job’s budget needs the model settings');
      return parseJobTimeoutSeconds(context.llm, request.max_pages);
    },
    followMarginSeconds: JOB_DEADLINE_MARGIN_SECONDS,
  },
  watch: { queue: QUEUES.parse, budgetSeconds: () => WATCH_LIMITS.checkTimeoutSeconds, followMarginSeconds: JOB_DEADLINE_MARGIN_SECONDS },
  // The client waits for the answer, as for a scrape.
  map: { queue: QUEUES.parse, budgetSeconds: () => MAP_LIMITS.timeoutSeconds, followMarginSeconds: 2 },
  batch: {
    queue: QUEUES.parse,
    budgetSeconds: ({ request, concurrency }) => batchTimeoutSeconds(request.urls.length, request.timeout, concurrency),
    followMarginSeconds: JOB_DEADLINE_MARGIN_SECONDS,
  },
};

export interface PayloadOptions {
  /** Needed by budgets that depend on settings (parse: the model's). */
  context?: BudgetContext;
  owner?: JobOwner;
  acceptedAt?: number;
}

/** A job's whole payload: its fields in the envelope (budget, accepted time, owner). */
export function jobPayload<N extends JobName>(name: N, fields: JobFields<N>, options: PayloadOptions = {}): JobPayload<N> {
  const kind = JOB_KINDS[name] as unknown as JobKind<N>;
  const { owner = {}, acceptedAt = Date.now() } = options;
  return {
    ...fields,
    timeoutSeconds: kind.budgetSeconds(fields, options.context),
    acceptedAt,
    ...(owner.owner === undefined ? {} : { owner: owner.owner }),
    ...(owner.plan === undefined ? {} : { plan: owner.plan }),
  } as JobPayload<N>;
}

/** Epoch ms until which a client waiting for this job's end waits: accepted + budget + margin. */
export function followDeadline(name: JobName, envelope: Pick<JobEnvelope, 'acceptedAt' | 'timeoutSeconds'>): number {
  return envelope.acceptedAt + (envelope.timeoutSeconds + JOB_KINDS[name].followMarginSeconds) * 1000;
}
