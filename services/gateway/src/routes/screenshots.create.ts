import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { screenshotCreateRequest, type ScreenshotCreateRequest } from '@sitelens/contracts';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { assertUrlAllowed } from '../http/url-policy';

export const screenshotCreateResponse = z.object({
  success: z.literal(true),
  job_id: z.uuid(),
  type: z.literal('screenshot'),
  status: z.literal('processing'),
  url: z.string(),
  status_url: z.string(),
  metadata: z.object({ device: z.string() }),
});

export const screenshotsCreate = defineRoute<ScreenshotCreateRequest>({
  method: 'post',
  paths: ['/v1/screenshots', '/api/v1/screenshots'],
  summary: 'Create a screenshot job',
  tag: 'Screenshots',
  body: screenshotCreateRequest,
  responses: { 202: { description: 'Job accepted', schema: screenshotCreateResponse } },
  async handler({ body, deps, origin, req }) {
    assertUrlAllowed(deps.config, body.url);
    const jobId = randomUUID();
    await withRedis(deps.redis, () =>
      deps.queues.screenshot.add(
        'screenshot',
        { request: body, timeoutSeconds: body.timeout, acceptedAt: Date.now(), owner: req.auth?.keyId },
        { jobId },
      ),
    );
    return {
      status: 202,
      body: {
        success: true,
        job_id: jobId,
        type: 'screenshot',
        status: 'processing',
        url: body.url,
        status_url: `${origin}/v1/screenshots?job_id=${jobId}`,
        metadata: { device: body.device },
      },
    };
  },
});
