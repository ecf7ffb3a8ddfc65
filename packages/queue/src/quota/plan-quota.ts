import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { PLANS, type PlanName, type PlanTable } from '@sitelens/contracts';

/**
 * A key's request counters in Redis, shared by everything that spends them: the gateway counts
 * requests, the parse worker counts scheduled watch checks against the same daily window. One
 * place builds them so both use the same Redis keys (`<prefix>:ratelimit:<window>:<key id>`) and
 * the same counting (rate-limiter-flexible: an atomic Lua INCR+EXPIRE per window).
 */
export type QuotaWindow = 'minute' | 'day';

export const QUOTA_WINDOW_SECONDS: Record<QuotaWindow, number> = { minute: 60, day: 86_400 };

export function createQuotaCounter(redis: Redis, prefix: string, window: QuotaWindow, points: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    // Fail fast: refuse at once while Redis is down instead of queueing the command.
    rejectIfRedisNotReady: true,
    keyPrefix: `${prefix}:ratelimit:${window}`,
    points,
    duration: QUOTA_WINDOW_SECONDS[window],
  });
}

export type QuotaDecision = { allowed: true; remaining: number } | { allowed: false; limit: number; msBeforeReset: number };

/**
 * The daily window of each plan, for spending more than one point at a time outside a request. A
 * refusal gives its points back, so a check too dear for what is left does not spend what is left
 * (a cheaper request may still fit).
 */
export class DailyQuota {
  private readonly counters: Partial<Record<PlanName, RateLimiterRedis>> = {};

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly plans: PlanTable = PLANS,
  ) {}

  private counter(plan: PlanName): RateLimiterRedis {
    return (this.counters[plan] ??= createQuotaCounter(this.redis, this.prefix, 'day', this.plans[plan].requestsPerDay));
  }

  /** Rejects (with a plain Error) only when Redis fails. */
  async consume(keyId: string, plan: PlanName, points: number): Promise<QuotaDecision> {
    const counter = this.counter(plan);
    try {
      const res = await counter.consume(keyId, points);
      return { allowed: true, remaining: res.remainingPoints };
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      await counter.reward(keyId, points);
      return { allowed: false, limit: this.plans[plan].requestsPerDay, msBeforeReset: Math.max(0, outcome.msBeforeNext) };
    }
  }
}
