import type { Redis } from 'ioredis';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import { PLAN_NAMES, PLANS, type PlanName, type PlanTable } from '@sitelens/contracts';
import { createQuotaCounter, type QuotaWindow } from '@sitelens/queue';

export type WindowName = QuotaWindow;

/** One counting window of one key, as the client sees it in the X-RateLimit-* headers. */
export interface WindowState {
  window: WindowName;
  limit: number;
  remaining: number;
  /** Milliseconds until the window's count starts again. */
  msBeforeReset: number;
}

export type RateDecision = { allowed: true; binding: WindowState } | { allowed: false; binding: WindowState; retryAfterSeconds: number };

/** The window the headers report: per-minute, unless the daily one is closer to running out. */
export function bindingWindow(minute: WindowState, day: WindowState): WindowState {
  return day.remaining < minute.remaining ? day : minute;
}

export function rateLimitHeaders(state: WindowState, nowMs: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil((nowMs + state.msBeforeReset) / 1000)),
  };
}

/** Whole seconds to wait; never 0, so a client honouring it does not retry in the same second. */
export function retryAfterSeconds(msBeforeReset: number): number {
  return Math.max(1, Math.ceil(msBeforeReset / 1000));
}

/**
 * Counts requests per key in Redis (rate-limiter-flexible: one atomic Lua INCR+EXPIRE per window,
 * so replicas sharing a Redis share the count; the parse worker spends the same daily count on
 * scheduled watch checks). Fixed windows: the minute and the day start at a key's first request
 * in them.
 *
 * A request is counted against the minute first. Refused there, it never touches the day count.
 * Allowed by the minute but refused by the day, its minute point is given back. So a refused
 * request spends nothing beyond the count of the window that refused it, and that count runs
 * past the limit harmlessly: a fixed window does not lengthen by being hit.
 */
export class PlanRateLimiter {
  private readonly limiters: Record<PlanName, Record<WindowName, RateLimiterRedis>>;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly plans: PlanTable = PLANS,
  ) {
    const build = (window: WindowName, points: number) => createQuotaCounter(redis, prefix, window, points);
    this.limiters = Object.fromEntries(
      PLAN_NAMES.map((plan) => [
        plan,
        { minute: build('minute', plans[plan].requestsPerMinute), day: build('day', plans[plan].requestsPerDay) },
      ]),
    ) as Record<PlanName, Record<WindowName, RateLimiterRedis>>;
  }

  /** Counts one request. Rejects (with a plain Error) only when Redis fails. */
  async consume(keyId: string, plan: PlanName): Promise<RateDecision> {
    const { minute, day } = this.limiters[plan];
    const limits = this.plans[plan];

    const minuteResult = await take(minute, keyId);
    const minuteState = toState('minute', limits.requestsPerMinute, minuteResult.res);
    if (!minuteResult.allowed) return refused(minuteState);

    const dayResult = await take(day, keyId);
    const dayState = toState('day', limits.requestsPerDay, dayResult.res);
    if (!dayResult.allowed) {
      await minute.reward(keyId, 1);
      return refused(dayState);
    }
    return { allowed: true, binding: bindingWindow(minuteState, dayState) };
  }
}

async function take(limiter: RateLimiterRedis, key: string): Promise<{ allowed: boolean; res: RateLimiterRes }> {
  try {
    return { allowed: true, res: await limiter.consume(key, 1) };
  } catch (outcome) {
    // The limiter rejects with a RateLimiterRes when the window is spent, with an Error otherwise.
    if (outcome instanceof RateLimiterRes) return { allowed: false, res: outcome };
    throw outcome;
  }
}

function toState(window: WindowName, limit: number, res: RateLimiterRes): WindowState {
  return { window, limit, remaining: res.remainingPoints, msBeforeReset: Math.max(0, res.msBeforeNext) };
}

function refused(state: WindowState): RateDecision {
  return { allowed: false, binding: { ...state, remaining: 0 }, retryAfterSeconds: retryAfterSeconds(state.msBeforeReset) };
}
