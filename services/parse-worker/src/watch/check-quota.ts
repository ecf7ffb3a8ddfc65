/**
 * Hosted mode: watch checks spend their key's daily request quota, the same Redis count the
 * gateway's requests spend. A scheduled check costs what a scrape request would (1); with
 * `include_image` one more, what a screenshot request would. A check started by a request
 * (the baseline at create, `POST /check`) has had that request counted by the gateway already, so
 * it costs only its image. Local mode counts nothing.
 */
import type { Redis } from 'ioredis';
import type { WatchRecord, WatchTrigger } from '@sitelens/contracts';
import type { DailyQuota } from '@sitelens/queue';

export function checkCost(watch: Pick<WatchRecord, 'include_image'>, trigger: WatchTrigger): number {
  return (trigger === 'schedule' ? 1 : 0) + (watch.include_image ? 1 : 0);
}

export interface CheckQuotaDeps {
  quota: DailyQuota;
  redis: Redis;
  prefix: string;
}

/** Undefined when the check may run; otherwise why not (for the skipped result). */
export async function spendCheckQuota(
  watch: WatchRecord,
  job: { id: string; trigger: WatchTrigger },
  deps: CheckQuotaDeps,
): Promise<string | undefined> {
  // Local watches have no owner; watches made before plans were recorded on them are not counted.
  if (watch.owner === undefined || watch.plan === undefined) return undefined;
  const points = checkCost(watch, job.trigger);
  if (points === 0) return undefined;
  // A job run again (a retry, a stalled job) was paid for by its first run.
  const paid = `${deps.prefix}:watch-quota-paid:${job.id}`;
  if ((await deps.redis.exists(paid)) === 1) return undefined;
  const decision = await deps.quota.consume(watch.owner, watch.plan, points);
  if (!decision.allowed) {
    const hours = Math.max(1, Math.ceil(decision.msBeforeReset / 3_600_000));
    return (
      `Not checked: the key's daily quota (${decision.limit} requests on the ${watch.plan} plan) is spent; ` +
      `this check costs ${points} and checks resume when the quota restarts, within ${hours} h`
    );
  }
  await deps.redis.set(paid, '1', 'EX', 86_400);
  return undefined;
}
