import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CRAWL_LIMITS, crawlCreateRequest, type CrawlCreateRequest } from '@sitelens/contracts';
import { enqueue } from '@sitelens/queue';
import { enforcePagesPerRequest } from '../auth/plan-limits';
import { assertWebhookSignable } from '../auth/webhook-signing';
import { jobOwnerOf } from '../auth/job-owner';
import { defineRoute } from '../http/route';
import { acceptedStatus } from '../http/accepted-status';
import { assertUrlAllowed } from '../http/url-policy';
import { withRedis } from '../jobs/redis-guard';

export const crawlCreateResponse = z.object({
  success: z.literal(true),
  job_id: z.uuid(),
  type: z.literal('crawl'),
  status: z.literal('processing'),
  status_url: z.string(),
});

export const crawlCreate = defineRoute<CrawlCreateRequest>({
  method: 'post',
  paths: ['/v1/crawl', '/api/v1/crawl'],
  summary:
    'Create a crawl job: breadth-first from url to depth, at most link_limit pages (the start page counted), same host ' +
    'unless include_subdomains, robots.txt obeyed. Follow it at status_url; webhook_url receives the signed result.',
  tag: 'Crawl',
  body: crawlCreateRequest,
  responses: { 202: { description: 'Job accepted', schema: crawlCreateResponse } },
  async handler({ body, deps, origin, req }) {
    assertUrlAllowed(deps.config, body.url);
    if (body.webhook_url) {
      assertUrlAllowed(deps.config, body.webhook_url);
      await assertWebhookSignable(req, deps);
    }
    const linkLimit = enforcePagesPerRequest(req, body.link_limit, 'link_limit', CRAWL_LIMITS.linkLimit.default);
    const jobId = randomUUID();
    const request = { ...body, link_limit: linkLimit };
    await withRedis(deps.redis, () => enqueue(deps.gates, 'crawl', { request }, { owner: jobOwnerOf(req), jobId }));
    return {
      status: acceptedStatus(req),
      body: { success: true, job_id: jobId, type: 'crawl', status: 'processing', status_url: `${origin}/v1/crawl/${jobId}` },
    };
  },
});
