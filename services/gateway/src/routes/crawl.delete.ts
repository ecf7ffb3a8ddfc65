import { z } from 'zod';
import { NotFound, type CrawlData } from '@sitelens/contracts';
import { publicStateOf, requestCrawlCancel } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import { defineRoute } from '../http/route';
import { loadJob } from '../jobs/job-access';
import { withRedis } from '../jobs/redis-guard';

const params = z.object({ job_id: z.string().trim().min(1).max(200) });

export const crawlCancelResponse = z.object({
  success: z.literal(true),
  job_id: z.string(),
  status: z.enum(['cancelled', 'completed', 'failed']),
  message: z.string(),
});

export const crawlDelete = defineRoute<undefined, undefined, z.infer<typeof params>>({
  method: 'delete',
  paths: ['/v1/crawl/:job_id', '/api/v1/crawl/:job_id'],
  summary:
    'Cancel a crawl: it stops at once (pages being fetched are dropped) and ends with status cancelled, keeping the ' +
    'pages it had in data; a crawl still waiting never starts. A crawl that already ended is left as it is.',
  tag: 'Crawl',
  params,
  responses: { 200: { description: 'Cancelled, or already ended', schema: crawlCancelResponse } },
  async handler({ params, deps, req }) {
    const found = await loadJob(deps, req, deps.queues.parse, params.job_id);
    if (!found || found.job.name !== 'crawl') throw new NotFound(`Crawl ${params.job_id} was not found (unknown or expired)`);
    const view = publicStateOf(found.job, found.state, Date.now(), deps.config.jobQueueTimeoutMs);
    if (view.status === 'completed' || view.status === 'failed') {
      // What the lookup says: the result's own mark, not whether a cancel was asked for (it may have come too late).
      const cancelled = view.status === 'completed' && (await loadJobResult<CrawlData>(deps.store, view.result)).cancelled === true;
      const status = cancelled ? 'cancelled' : view.status;
      return { status: 200, body: { success: true, job_id: params.job_id, status, message: `The crawl had already ended (${status})` } };
    }
    await withRedis(deps.redis, () => requestCrawlCancel(deps.redis, deps.config.redis.prefix, params.job_id, deps.config.jobRetentionMs));
    return { status: 200, body: { success: true, job_id: params.job_id, status: 'cancelled', message: 'The crawl was cancelled' } };
  },
});
