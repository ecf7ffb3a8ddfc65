import { watchIdParams, type WatchIdParams } from '@sitelens/contracts';
import { unscheduleWatch } from '@sitelens/watch';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { loadWatch } from '../watch/watch-access';
import { watchActionResponse } from '../watch/watch-schemas';

export const watchDelete = defineRoute<undefined, undefined, WatchIdParams>({
  method: 'delete',
  paths: ['/v1/watch/:id', '/api/v1/watch/:id'],
  summary: 'Delete a watch: its schedule, its results and their images',
  tag: 'Watch',
  params: watchIdParams,
  responses: { 200: { description: 'Deleted', schema: watchActionResponse } },
  async handler({ params, deps, req, log }) {
    const { store, watch } = await loadWatch(deps, req, params.id);
    const results = await withRedis(deps.redis, async () => {
      // Schedule first, so no new tick starts for a watch that is going away.
      await unscheduleWatch(deps.queues.parse, watch.id);
      return store.remove(watch.id);
    });
    for (const { image_key: key } of results ?? []) {
      if (key) await deps.store.delete(key).catch((error: unknown) => log.warn({ err: String(error) }, 'could not delete a watch image'));
    }
    return { body: { success: true, message: 'Watch deleted' } };
  },
});
