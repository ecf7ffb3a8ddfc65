import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { batchScrapeRequest, type BatchScrapeRequest } from '@sitelens/contracts';
import { enqueue } from '@sitelens/queue';
import { enforceBatchSize } from '../auth/plan-limits';
import { assertWebhookSignable } from '../auth/webhook-signing';
import { jobOwnerOf } from '../auth/job-owner';
import { defineRoute } from '../http/route';
import { acceptedStatus } from '../http/accepted-status';
import { assertUrlAllowed } from '../http/url-policy';
import { withRedis } from '../jobs/redis-guard';

export const batchCreateResponse = z.object({
  success: z.literal(true),
  job_id: z.uuid(),
  type: z.literal('batch'),
  status: z.literal('processing'),
  status_url: z.string(),
});

export const batchCreate = defineRoute<BatchScrapeRequest>({
  method: 'post',
  paths: ['/v1/batch/scrape', '/api/v1/batch/scrape'],
  summary:
    'Scrape many pages as one job (at most 1,000 URLs; hosted plans cap it): each as GET /v1/scrape would, a few at a time. ' +
    'Follow it at status_url (progress, then the results, ?offset=&limit= to page through them); webhook_url gets ' +
    'batch.completed / batch.failed, and batch.page per page when webhook_events asks for it.',
  tag: 'Scrape',
  body: batchScrapeRequest,
  responses: { 202: { description: 'Job accepted', schema: batchCreateResponse } },
  async handler({ body, deps, origin, req }) {
    enforceBatchSize(req, body.urls.length);
    for (const url of body.urls) assertUrlAllowed(deps.config, url);
    if (body.webhook_url) {
      assertUrlAllowed(deps.config, body.webhook_url);
      await assertWebhookSignable(req, deps);
    }
    const jobId = randomUUID();
    const fields = { request: body, concurrency: deps.config.crawlConcurrency };
    await withRedis(deps.redis, () => enqueue(deps.gates, 'batch', fields, { owner: jobOwnerOf(req), jobId }));
    return {
      status: acceptedStatus(req),
      body: { success: true, job_id: jobId, type: 'batch', status: 'processing', status_url: `${origin}/v1/batch/scrape/${jobId}` },
    };
  },
});
