import { z } from 'zod';
import {
  publicJobError,
  watchCheckQuery,
  watchIdParams,
  type WatchCheckQuery,
  type WatchIdParams,
  type WatchJobResult,
} from '@sitelens/contracts';
import { followJob, readJob } from '@sitelens/queue';
import { enqueueWatchCheck } from '@sitelens/watch';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { loadWatch } from '../watch/watch-access';
import { watchResultView } from '../watch/watch-view';
import { watchResultSchema } from '../watch/watch-schemas';

export const watchCheck = defineRoute<undefined, WatchCheckQuery, WatchIdParams>({
  method: 'post',
  paths: ['/v1/watch/:id/check', '/api/v1/watch/:id/check'],
  summary:
    'Run a check now (paused watches too). Waits up to `wait` seconds (default 20, 0..60) and answers 200 with the ' +
    'result, or 202 while the check is still running (its result then appears in GET /v1/watch/{id}).',
  tag: 'Watch',
  params: watchIdParams,
  query: watchCheckQuery,
  responses: {
    200: {
      description: 'Check finished',
      schema: z.object({ success: z.boolean(), message: z.string(), job_id: z.string(), result: watchResultSchema.nullable().optional() }),
    },
    202: { description: 'Check queued', schema: z.object({ success: z.literal(true), message: z.string(), job_id: z.string() }) },
  },
  async handler({ params, query, deps, req, origin }) {
    const { store, watch } = await loadWatch(deps, req, params.id);
    const queued = await withRedis(deps.redis, () => enqueueWatchCheck(deps.gates, watch, 'manual'));
    const jobId = queued.id ?? '';
    const source = { queue: deps.queues.parse, events: deps.events.parse };
    const read = <T>(work: () => Promise<T>) => withRedis(deps.redis, work);
    const end =
      query.wait > 0 ? await followJob(source, jobId, { waitMs: query.wait * 1000, signal: deps.stopping, read }).done : undefined;
    // The follower's last read is the job as it ended; otherwise it is read once, now.
    const snapshot = end && end.state !== 'unfinished' ? end : await read(() => readJob(deps.queues.parse, jobId));
    const job = snapshot?.job;
    const state = snapshot?.state ?? 'unknown';
    if (job && state === 'completed') {
      const { resultId } = job.returnvalue as WatchJobResult;
      const records = resultId ? await withRedis(deps.redis, () => store.results(watch.id)) : [];
      const record = records.find((candidate) => candidate.id === resultId);
      const result = record ? await watchResultView(record, deps, origin) : null;
      return { body: { success: true, message: 'Check completed', job_id: jobId, result } };
    }
    if (job && state === 'failed') {
      const { code, message } = publicJobError(job.failedReason);
      return { body: { success: false, message: 'Check failed', job_id: jobId, error: message, code } };
    }
    return { status: 202, body: { success: true, message: 'Check queued', job_id: jobId } };
  },
});
