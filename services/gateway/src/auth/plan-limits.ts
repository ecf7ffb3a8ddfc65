import {
  MAP_LIMITS,
  PlanLimit,
  PLANS,
  isPlanName,
  watchIntervalSeconds,
  type PlanLimits,
  type PlanName,
  type WatchFrequency,
} from '@sitelens/contracts';
import type { RequestAuth } from '../http/request-context';

/** Anything carrying the gateway's auth result: an Express request, or `{ auth }` in tests. */
export interface Authenticated {
  auth?: RequestAuth;
}

function planOf(request: Authenticated): { name: PlanName; limits: PlanLimits } | undefined {
  const plan = request.auth?.plan;
  // No auth means local mode, where no plan applies.
  if (plan === undefined) return undefined;
  // The guard only attaches known plans; refuse rather than let an unknown one through uncapped.
  if (!isPlanName(plan)) throw new PlanLimit(`Unknown plan "${plan}"`);
  return { name: plan, limits: PLANS[plan] };
}

/**
 * The page count a parse or crawl request may use, or 403 PLAN_LIMIT naming the field and the
 * plan's cap when it asks for more. `field` is the request's own name for the count (`max_pages`,
 * `link_limit`). When the client did not give the field (`requested` undefined), the route's
 * default applies, lowered to the plan's cap: a free-plan parse without max_pages gets 5, not 10
 * and not a 403. So validate the field as optional and pass the default here.
 */
export function enforcePagesPerRequest(request: Authenticated, requested: number | undefined, field: string, fallback: number): number {
  const plan = planOf(request);
  if (requested === undefined) return plan ? Math.min(fallback, plan.limits.pagesPerRequest) : fallback;
  if (!plan || requested <= plan.limits.pagesPerRequest) return requested;
  throw new PlanLimit(`${field} ${requested} exceeds the ${plan.name} plan's limit of ${plan.limits.pagesPerRequest} pages per request`);
}

/**
 * A map's `limit` (the default lowered to the plan's cap when not given, a 403 PLAN_LIMIT when it
 * asks for more) and the pages its link walk may read: locally the limit or the default limit,
 * whichever is more (reading pages is how titles are known for `search`); in hosted mode the
 * plan's `mapPages`.
 */
export function enforceMapLimits(request: Authenticated, requested: number | undefined): { limit: number; maxPages: number } {
  const plan = planOf(request);
  const fallback = MAP_LIMITS.limit.default;
  if (!plan) {
    const limit = requested ?? fallback;
    return { limit, maxPages: Math.max(limit, fallback) };
  }
  if (requested !== undefined && requested > plan.limits.mapLinks) {
    throw new PlanLimit(`limit ${requested} exceeds the ${plan.name} plan's limit of ${plan.limits.mapLinks} URLs per map`);
  }
  const limit = requested ?? Math.min(fallback, plan.limits.mapLinks);
  return { limit, maxPages: plan.limits.mapPages };
}

/** Refuses a batch with more URLs than the caller's plan allows (403 PLAN_LIMIT naming the cap). */
export function enforceBatchSize(request: Authenticated, urls: number): void {
  const plan = planOf(request);
  if (!plan || urls <= plan.limits.batchUrls) return;
  throw new PlanLimit(`${urls} urls exceed the ${plan.name} plan's limit of ${plan.limits.batchUrls} URLs per batch`);
}

/** Refuses a streamed response on a plan without streaming (403 PLAN_LIMIT). */
export function enforceStreaming(request: Authenticated): void {
  const plan = planOf(request);
  if (!plan || plan.limits.streaming) return;
  throw new PlanLimit(`Streaming is not available on the ${plan.name} plan; send stream: false or upgrade the plan`);
}

/** "every minute", "every 5 minutes", "every hour", "every 90 seconds". */
export function describeInterval(seconds: number): string {
  const [count, unit] =
    seconds % 3_600 === 0 ? [seconds / 3_600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
}

/**
 * Refuses a watch schedule that runs more often than the caller's plan allows (403 PLAN_LIMIT
 * naming the cap). Returns the plan (its name and watch cap) in hosted mode, undefined locally.
 */
export function enforceWatchSchedule(
  request: Authenticated,
  watch: { frequency: WatchFrequency; custom_frequency?: string },
): { name: PlanName; watches: number } | undefined {
  const plan = planOf(request);
  if (!plan) return undefined;
  const interval = watchIntervalSeconds(watch);
  const min = plan.limits.watchIntervalSeconds;
  if (interval !== undefined && interval < min) {
    const field = watch.frequency === 'custom' ? `custom_frequency '${watch.custom_frequency}'` : `frequency '${watch.frequency}'`;
    throw new PlanLimit(
      `${field} runs ${describeInterval(interval)}; the ${plan.name} plan allows watch schedules at most ${describeInterval(min)}`,
    );
  }
  return { name: plan.name, watches: plan.limits.watches };
}

/** 403 PLAN_LIMIT for a key at its plan's watch cap. */
export function watchCapReached(plan: { name: PlanName; watches: number }): PlanLimit {
  return new PlanLimit(`The ${plan.name} plan allows at most ${plan.watches} watches; delete one to create another`);
}
