import { z } from 'zod';
import { NotFound, batchLookupQuery, type BatchData, type BatchLookupQuery, type CrawlProgress } from '@sitelens/contracts';
import { publicStateOf } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import { defineRoute } from '../http/route';
import { loadJob } from '../jobs/job-access';

const params = z.object({ job_id: z.string().trim().min(1).max(200) });

export const batchGet = defineRoute<undefined, BatchLookupQuery, z.infer<typeof params>>({
  method: 'get',
  paths: ['/v1/batch/scrape/:job_id', '/api/v1/batch/scrape/:job_id'],
  summary:
    'Follow a batch scrape: status, total, completed and failed pages while it runs; once completed, the results in the ' +
    'order of urls, `limit` of them from `offset` (default 100 from 0), with `next` holding the following offset.',
  tag: 'Scrape',
  params,
  query: batchLookupQuery,
  async handler({ params, query, deps, req }) {
    const found = await loadJob(deps, req, deps.queues.parse, params.job_id);
    if (!found || found.job.name !== 'batch') throw new NotFound(`Batch ${params.job_id} was not found (unknown or expired)`);
    const { job, state } = found;
    const view = publicStateOf(job, state, Date.now(), deps.config.jobQueueTimeoutMs);
    const ids = { job_id: params.job_id, type: 'batch' };
    const total = Array.isArray((job.data as { request?: { urls?: unknown[] } }).request?.urls)
      ? (job.data as { request: { urls: unknown[] } }).request.urls.length
      : 0;
    if (view.status === 'completed') {
      const result = await loadJobResult<BatchData>(deps.store, view.result);
      const end = Math.min(result.data.length, query.offset + query.limit);
      return {
        status: 200,
        body: {
          success: true,
          ...ids,
          status: 'completed',
          total: result.total,
          completed: result.completed,
          failed: result.failed,
          offset: query.offset,
          limit: query.limit,
          ...(end < result.data.length ? { next: end } : {}),
          data: result.data.slice(query.offset, end),
          ...(result.truncated ? { truncated: true } : {}),
        },
      };
    }
    if (view.status === 'failed')
      return { status: 200, body: { success: false, ...ids, status: 'failed', error: view.error, code: view.code } };
    const statistics = (view.progress as Partial<CrawlProgress> | undefined)?.statistics;
    return {
      status: 202,
      body: {
        success: true,
        ...ids,
        status: 'processing',
        total,
        completed: statistics?.successful_pages ?? 0,
        failed: statistics?.failed_pages ?? 0,
      },
    };
  },
});
