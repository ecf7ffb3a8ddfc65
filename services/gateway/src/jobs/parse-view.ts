import type { Request } from 'express';
import { NotFound, type ParseJobProgress, type ParseJobResult } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import type { GatewayDeps } from '../deps';
import type { RouteResult } from '../http/route';
import { parseJobFailure } from './parse-errors';
import { loadJob } from './job-access';

/**
 * `GET /v1/parse/<job_id>`: the spec 2.5 body as the job moves (202 while processing, with
 * `workflow_status` and `pages_processed` from its last progress report), the full response once
 * completed (also nested as `results`), the error body once failed; plus `job_id`, `type` and
 * `status` as the Supacrawler clients read them. Unknown, expired and non-parse ids are 404.
 */
export async function viewParseJob(deps: GatewayDeps, req: Request, jobId: string): Promise<RouteResult> {
  const found = await loadJob(deps, req, deps.queues.parse, jobId);
  if (!found || found.job.name !== 'parse') throw new NotFound(`Parse job ${jobId} was not found (unknown or expired)`);
  const { job, state } = found;
  const now = Date.now();
  const view = publicStateOf(job, state, now, deps.config.jobQueueTimeoutMs);
  const ids = { job_id: jobId, type: 'parse' };

  if (view.status === 'completed') {
    const result = await loadJobResult<ParseJobResult>(deps.store, view.result);
    // The Supacrawler Python SDK's wait_for_parse(job_id).data reads the job record's `results`
    // (its `data` inside): the response is there too, and the flat fields stay for everyone else.
    return { status: 200, body: { ...result, ...ids, status: 'completed', results: result } };
  }
  const progress = (job.progress && typeof job.progress === 'object' ? job.progress : {}) as Partial<ParseJobProgress>;
  const pagesProcessed = progress.pages_processed ?? 0;
  if (view.status === 'failed') {
    const executionTimeMs = (job.finishedOn ?? now) - (job.processedOn ?? job.timestamp);
    const error = parseJobFailure(`${view.code}: ${view.error}`, { pagesProcessed, executionTimeMs });
    return { status: 200, body: { ...error.toBody(), ...ids, status: 'failed' } };
  }
  return {
    status: 202,
    body: {
      success: true,
      ...ids,
      status: 'processing',
      workflow_status: progress.workflow_status ?? 'analyzing',
      pages_processed: pagesProcessed,
      ...(progress.total_pages === undefined ? {} : { total_pages: progress.total_pages }),
      execution_time: now - job.timestamp,
    },
  };
}
