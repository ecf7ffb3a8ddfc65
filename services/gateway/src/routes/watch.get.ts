import { z } from 'zod';
import { watchIdParams, type WatchIdParams } from '@sitelens/contracts';
import { nextWatchCheck } from '@sitelens/watch';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { loadWatch } from '../watch/watch-access';
import { watchResultView, watchView } from '../watch/watch-view';
import { watchResultSchema, watchSchema } from '../watch/watch-schemas';

export const watchGet = defineRoute<undefined, undefined, WatchIdParams>({
  method: 'get',
  paths: ['/v1/watch/:id', '/api/v1/watch/:id'],
  summary: 'Get a watch and its recent results (newest first), each image as a fresh signed URL',
  tag: 'Watch',
  params: watchIdParams,
  responses: {
    200: {
      description: 'The watch and its results',
      schema: z.object({
        success: z.literal(true),
        watch: watchSchema.extend({ next_check: z.string().nullable() }),
        results: z.array(watchResultSchema),
      }),
    },
  },
  async handler({ params, deps, req, origin }) {
    const { store, watch } = await loadWatch(deps, req, params.id);
    const [records, next] = await withRedis(deps.redis, () =>
      Promise.all([store.results(watch.id), watch.status === 'active' ? nextWatchCheck(deps.queues.parse, watch.id) : undefined]),
    );
    const results = await Promise.all(records.map((record) => watchResultView(record, deps, origin)));
    return {
      body: {
        success: true,
        watch: { ...watchView(watch), next_check: next === undefined ? null : new Date(next).toISOString() },
        results,
      },
    };
  },
});
