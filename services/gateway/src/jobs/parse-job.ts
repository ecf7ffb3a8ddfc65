import type { Config } from '@sitelens/config';
import { parseCancelKey, type JobEnvelope, type ParseJobPayload, type ParseJobRequest } from '@sitelens/contracts';
import type { GatewayDeps } from '../deps';
import { withRedis } from './redis-guard';

/** Time for collecting pages and formatting, on top of the model's share. */
const COLLECTION_BUDGET_SECONDS = 120;

/**
 * A parse job's time budget: collection, plus every wave of concurrent model calls taking all its
 * attempts (PARSE_TIMEOUT each) and the backoff between them. Generous on purpose: it only stops
 * work that is stuck, and the worker enforces it.
 */
export function parseJobTimeoutSeconds(llm: Config['llm'], maxPages: number): number {
  const waves = Math.ceil(maxPages / Math.max(1, llm.concurrency));
  const attemptSeconds = Math.ceil(llm.timeoutMs / 1000);
  const backoffSeconds = 2 ** llm.maxRetries;
  return COLLECTION_BUDGET_SECONDS + waves * (attemptSeconds * (llm.maxRetries + 1) + backoffSeconds);
}

export interface ParseJobSpec extends Pick<JobEnvelope, 'owner' | 'plan'> {
  jobId: string;
  request: ParseJobRequest;
  timeoutSeconds: number;
}

/**
 * Adds the job. One attempt only: retries happen per model call, so their count stays exact.
 */
export async function enqueueParse(deps: GatewayDeps, spec: ParseJobSpec): Promise<void> {
  const payload: ParseJobPayload = {
    request: spec.request,
    timeoutSeconds: spec.timeoutSeconds,
    acceptedAt: Date.now(),
    ...(spec.owner === undefined ? {} : { owner: spec.owner }),
    ...(spec.plan === undefined ? {} : { plan: spec.plan }),
  };
  await withRedis(deps.redis, () => deps.gates.parse.add('parse', payload, { jobId: spec.jobId, attempts: 1 }));
}

/**
 * Stops a parse whose client went away: a job still waiting is removed; a running one sees the
 * cancel key within a poll and aborts its fetches and model calls. Best effort, never throws.
 */
export async function cancelParse(deps: GatewayDeps, jobId: string): Promise<void> {
  const key = parseCancelKey(deps.config.redis.prefix, jobId);
  const ttlSeconds = Math.max(60, Math.round(deps.config.jobRetentionMs / 1000));
  await deps.redis.set(key, '1', 'EX', ttlSeconds).catch(() => undefined);
  const job = await deps.queues.parse.getJob(jobId).catch(() => undefined);
  // Refused while a worker holds the job's lock; the key stops it then.
  await job?.remove().catch(() => undefined);
}
