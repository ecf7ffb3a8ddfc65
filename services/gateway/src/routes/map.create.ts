import {
  MAP_LIMITS,
  TimeoutError,
  followDeadline,
  mapRequest,
  mapResponseSchema,
  type MapJobResult,
  type MapRequest,
} from '@sitelens/contracts';
import { enqueue } from '@sitelens/queue';
import { loadJobResult } from '@sitelens/storage';
import { jobOwnerOf } from '../auth/job-owner';
import { enforceMapLimits } from '../auth/plan-limits';
import { defineRoute } from '../http/route';
import { assertUrlAllowed } from '../http/url-policy';
import { awaitJob } from '../jobs/await-job';
import { withRedis } from '../jobs/redis-guard';

export const mapCreate = defineRoute<MapRequest>({
  method: 'post',
  paths: ['/v1/map', '/api/v1/map'],
  summary:
    "A site's URLs, fast: every URL its sitemaps list (robots.txt's, indexes, gzipped files) and a link walk of its pages " +
    `finds (no rendering), normalised and deduplicated; search ranks matching paths and titles first. Answers within ~${MAP_LIMITS.timeoutSeconds} s ` +
    `(the walk stops at ${MAP_LIMITS.walkSeconds} s and the answer is what it found). Hosted plans cap limit and the pages walked.`,
  tag: 'Scrape',
  body: mapRequest,
  responses: { 200: { description: 'The URLs', schema: mapResponseSchema } },
  async handler({ body, deps, req }) {
    assertUrlAllowed(deps.config, body.url);
    const { limit, maxPages } = enforceMapLimits(req, body.limit);
    const request = { ...body, limit, max_pages: maxPages };
    const job = await withRedis(deps.redis, () => enqueue(deps.gates, 'map', { request }, { owner: jobOwnerOf(req) }));
    const waitMs = followDeadline('map', job.data) - Date.now();
    const source = { queue: deps.queues.parse, events: deps.events.parse, gate: deps.gates.parse };
    const outcome = await awaitJob<MapJobResult>(deps, source, String(job.id), waitMs);
    if (!outcome.finished) throw new TimeoutError(`Mapping ${body.url} took longer than ${MAP_LIMITS.timeoutSeconds} s`);
    return { status: 200, body: await loadJobResult<MapJobResult>(deps.store, outcome.result) };
  },
});
