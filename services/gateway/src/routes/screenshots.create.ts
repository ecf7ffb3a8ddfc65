import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import {
  TimeoutError,
  assertClipPixels,
  assertViewportPixels,
  followDeadline,
  screenshotCreateRequest,
  type ScreenshotCreateRequest,
  type ScreenshotJobResult,
} from '@sitelens/contracts';
import { ScreenshotCache, enqueue, screenshotCacheKey } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { awaitJob } from '../jobs/await-job';
import type { ScreenshotJob } from '../jobs/screenshot-view';
import { defineRoute } from '../http/route';
import { acceptedStatus } from '../http/accepted-status';
import { withRedis } from '../jobs/redis-guard';
import { assertUrlAllowed } from '../http/url-policy';
import { jobOwnerOf } from '../auth/job-owner';
import { assertWebhookSignable } from '../auth/webhook-signing';

export const screenshotCreateResponse = z.object({
  success: z.literal(true),
  job_id: z.uuid(),
  type: z.literal('screenshot'),
  status: z.literal('processing'),
  /** Absent for rendered `html`. */
  url: z.string().optional(),
  status_url: z.string(),
  metadata: z.object({ device: z.string() }),
});

/** `stream: true`: holds the request until the job ends and answers with the image bytes. */
async function sendImageWhenDone(job: ScreenshotJob, options: { deps: GatewayDeps; res: Response; waitMs: number }): Promise<void> {
  const { deps } = options;
  const source = { queue: deps.queues.screenshot, events: deps.events.screenshot, gate: deps.gates.screenshot };
  const outcome = await awaitJob<ScreenshotJobResult>(deps, source, String(job.id), options.waitMs);
  if (!outcome.finished) {
    throw new TimeoutError(`The screenshot did not finish in time; poll GET /v1/screenshots?job_id=${job.id} for it`);
  }
  await sendImage(outcome.result, String(job.id), options);
}

/** The image bytes of a finished job as the answer. */
async function sendImage(result: ScreenshotJobResult, jobId: string, options: { deps: GatewayDeps; res: Response }): Promise<void> {
  const { deps, res } = options;
  const content = await deps.store.get(result.key);
  res.status(200);
  res.setHeader('Content-Type', result.contentType);
  if (content.size !== undefined) res.setHeader('Content-Length', String(content.size));
  res.setHeader('X-Job-Id', jobId);
  await pipeline(content.body, res);
}

export const screenshotsCreate = defineRoute<ScreenshotCreateRequest>({
  method: 'post',
  paths: ['/v1/screenshots', '/api/v1/screenshots'],
  summary: 'Create a screenshot job (202 with a job id), or with stream: true wait for it and answer with the image bytes',
  tag: 'Screenshots',
  body: screenshotCreateRequest,
  responses: { 202: { description: 'Job accepted', schema: screenshotCreateResponse } },
  async handler({ body, deps, origin, req, res }) {
    if (body.url) assertUrlAllowed(deps.config, body.url);
    assertViewportPixels(body, deps.config.browser.maxPixels);
    assertClipPixels(body, deps.config.browser.maxPixels);
    if (body.webhook_url) {
      assertUrlAllowed(deps.config, body.webhook_url);
      await assertWebhookSignable(req, deps);
    }
    const jobId = randomUUID();
    const ownership = jobOwnerOf(req);
    const owner = ownership.owner;
    // cache_ttl: an identical earlier request's image answers this one at once (a request with a
    // webhook_url is always captured, so its webhook is sent).
    const cacheKey = body.cache_ttl > 0 ? screenshotCacheKey(owner, body) : undefined;
    const cache = new ScreenshotCache(deps.redis, deps.config.redis.prefix);
    const cached = cacheKey && !body.webhook_url ? await withRedis(deps.redis, () => cache.get(cacheKey)) : undefined;
    if (cached) {
      const result = { ...cached, metadata: { ...cached.metadata, cached: true } };
      const retentionSeconds = Math.floor(deps.config.jobRetentionMs / 1000);
      await withRedis(deps.redis, () => cache.recordHit(jobId, { owner, url: body.url, acceptedAt: Date.now(), result }, retentionSeconds));
      if (body.stream) {
        await sendImage(result, jobId, { deps, res });
        return undefined;
      }
    } else {
      const payload = {
        request: body,
        ...(body.webhook_url ? { origin } : {}),
        ...(cacheKey ? { cache: { key: cacheKey, ttlSeconds: body.cache_ttl } } : {}),
      };
      const job = await withRedis(deps.redis, () => enqueue(deps.gates, 'screenshot', payload, { owner: ownership, jobId }));
      if (body.stream) {
        await sendImageWhenDone(job, { deps, res, waitMs: followDeadline('screenshot', job.data) - Date.now() });
        return undefined;
      }
    }
    return {
      status: acceptedStatus(req),
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
