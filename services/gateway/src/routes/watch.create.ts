import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { BadRequest, WATCH_LIMITS, checkCron, watchCreateRequest, type WatchCreateRequest, type WatchRecord } from '@sitelens/contracts';
import { enqueueWatchCheck, scheduleWatch } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { jobOwnerOf } from '../auth/job-owner';
import { defineRoute } from '../http/route';
import { assertUrlAllowed } from '../http/url-policy';
import { withRedis } from '../jobs/redis-guard';
import { watchOwnerOf, watchStoreOf } from '../watch/watch-access';
import { watchView } from '../watch/watch-view';
import { watchSchema } from '../watch/watch-schemas';

/** Hosted mode keeps custom schedules at a sane pace; a local instance runs what it is given. */
function assertHostedPace(body: WatchCreateRequest, deps: GatewayDeps): void {
  if (deps.config.mode !== 'hosted' || body.frequency !== 'custom' || !body.custom_frequency) return;
  const cron = checkCron(body.custom_frequency);
  const min = WATCH_LIMITS.minHostedIntervalSeconds;
  if (cron.ok && cron.intervalSeconds < min) {
    throw new BadRequest(`Invalid field 'custom_frequency': runs more often than once every ${min} s`, { details: { field: 'custom_frequency' } });
  }
}

export const watchCreate = defineRoute<WatchCreateRequest>({
  method: 'post',
  paths: ['/v1/watch', '/api/v1/watch'],
  summary: 'Create a watch: the page is checked at once (the baseline), then on its schedule',
  tag: 'Watch',
  body: watchCreateRequest,
  responses: {
    201: {
      description: 'Watch created',
      schema: z.object({ success: z.literal(true), watch_id: z.string(), message: z.string(), watch: watchSchema }),
    },
  },
  async handler({ body, deps, req }) {
    assertUrlAllowed(deps.config, body.url);
    if (body.webhook_url) assertUrlAllowed(deps.config, body.webhook_url);
    assertHostedPace(body, deps);
    const now = new Date().toISOString();
    const owner = watchOwnerOf(req, deps);
    const { plan } = jobOwnerOf(req);
    const watch: WatchRecord = {
      id: randomUUID(),
      ...body,
      status: 'active',
      created_at: now,
      updated_at: now,
      last_check: null,
      last_change: null,
      last_notification: null,
      ...(owner === undefined ? {} : { owner }),
      ...(owner === undefined || plan === undefined ? {} : { plan }),
    };
    const store = watchStoreOf(deps);
    await withRedis(deps.redis, async () => {
      await store.create(watch);
      try {
        await scheduleWatch(deps.queues.parse, watch);
        await enqueueWatchCheck(deps.gates, watch, 'create');
      } catch (error) {
        await store.remove(watch.id).catch(() => undefined);
        throw error;
      }
    });
    return { status: 201, body: { success: true, watch_id: watch.id, message: 'Watch created', watch: watchView(watch) } };
  },
});
