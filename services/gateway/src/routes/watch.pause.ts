import { NotFound, watchIdParams, type WatchIdParams } from '@sitelens/contracts';
import { unscheduleWatch } from '@sitelens/watch';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { loadWatch } from '../watch/watch-access';
import { watchView } from '../watch/watch-view';
import { watchActionResponse } from '../watch/watch-schemas';

export const watchPause = defineRoute<undefined, undefined, WatchIdParams>({
  method: 'patch',
  paths: ['/v1/watch/:id/pause', '/api/v1/watch/:id/pause'],
  summary: 'Pause a watch: its schedule stops (POST /check still runs it)',
  tag: 'Watch',
  params: watchIdParams,
  responses: { 200: { description: 'Paused', schema: watchActionResponse } },
  async handler({ params, deps, req }) {
    const { store, watch } = await loadWatch(deps, req, params.id);
    const fields = { status: 'paused' as const, updated_at: new Date().toISOString() };
    const updated = await withRedis(deps.redis, async () => {
      await unscheduleWatch(deps.queues.parse, watch.id);
      return store.update(watch.id, fields);
    });
    if (!updated) throw new NotFound(`Watch ${watch.id} was not found`);
    return { body: { success: true, message: 'Watch paused', watch: watchView({ ...watch, ...fields }) } };
  },
});
