import { NotFound, watchIdParams, type WatchIdParams } from '@sitelens/contracts';
import { scheduleWatch } from '@sitelens/watch';
import { defineRoute } from '../http/route';
import { withRedis } from '../jobs/redis-guard';
import { loadWatch } from '../watch/watch-access';
import { watchView } from '../watch/watch-view';
import { watchActionResponse } from '../watch/watch-schemas';

export const watchResume = defineRoute<undefined, undefined, WatchIdParams>({
  method: 'patch',
  paths: ['/v1/watch/:id/resume', '/api/v1/watch/:id/resume'],
  summary: 'Resume a paused watch: its schedule starts again from the next tick',
  tag: 'Watch',
  params: watchIdParams,
  responses: { 200: { description: 'Resumed', schema: watchActionResponse } },
  async handler({ params, deps, req }) {
    const { store, watch } = await loadWatch(deps, req, params.id);
    const resumed = { ...watch, status: 'active' as const, updated_at: new Date().toISOString() };
    await withRedis(deps.redis, async () => {
      if (!(await store.update(watch.id, { status: resumed.status, updated_at: resumed.updated_at }))) {
        throw new NotFound(`Watch ${watch.id} was not found`);
      }
      await scheduleWatch(deps.queues.parse, resumed);
    });
    return { body: { success: true, message: 'Watch resumed', watch: watchView(resumed) } };
  },
});
