import { z } from 'zod';
import { watchListQuery, type WatchListQuery } from '@sitelens/contracts';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { watchOwnerOf, watchStoreOf } from '../watch/watch-access';
import { watchView } from '../watch/watch-view';
import { watchSchema } from '../watch/watch-schemas';

export const watchList = defineRoute<undefined, WatchListQuery>({
  method: 'get',
  paths: ['/v1/watch', '/api/v1/watch'],
  summary: "List watches (in hosted mode, the calling key's), oldest first; `total` counts them all",
  tag: 'Watch',
  query: watchListQuery,
  responses: {
    200: { description: 'Watches', schema: z.object({ success: z.literal(true), total: z.number(), watches: z.array(watchSchema) }) },
  },
  async handler({ query, deps, req }) {
    const store = watchStoreOf(deps);
    const page = await withRedis(deps.redis, () => store.list(watchOwnerOf(req, deps), query));
    return { body: { success: true, total: page.total, watches: page.watches.map(watchView) } };
  },
});
