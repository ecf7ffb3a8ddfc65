import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { watchCreateRequest, type WatchCreateRequest, type WatchRecord } from '@sitelens/contracts';
import { enqueueWatchCheck, scheduleWatch } from '@sitelens/watch';
import { enforceWatchSchedule, watchCapReached } from '../auth/plan-limits';
import { assertWebhookSignable } from '../auth/webhook-signing';
import { defineRoute } from '../http/route';
import { assertUrlAllowed } from '../http/url-policy';
import { withRedis } from '../jobs/redis-guard';
import { registerNotifyEmail } from '../watch/email-confirmation';
import { watchOwnerOf, watchStoreOf } from '../watch/watch-access';
import { watchView } from '../watch/watch-view';
import { watchSchema } from '../watch/watch-schemas';

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
  async handler({ body, deps, req, origin }) {
    assertUrlAllowed(deps.config, body.url);
    if (body.webhook_url) {
      assertUrlAllowed(deps.config, body.webhook_url);
      await assertWebhookSignable(req, deps);
    }
    // Hosted mode: the plan caps the schedule's pace and the key's number of watches.
    const plan = enforceWatchSchedule(req, body);
    const now = new Date().toISOString();
    const owner = watchOwnerOf(req, deps);
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
      ...(owner === undefined || plan === undefined ? {} : { plan: plan.name }),
    };
    const store = watchStoreOf(deps);
    await withRedis(deps.redis, async () => {
      if (!(await store.create(watch, { maxPerOwner: plan?.watches }))) throw watchCapReached(plan!);
      try {
        // Hosted mode: an address gets watch mail only once its owner confirms it (the worker sends the request).
        if (owner !== undefined && watch.notify_email) await registerNotifyEmail(deps, owner, watch.notify_email, origin);
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
