/**
 * Plans of hosted mode (spec section 8). The gateway counts requests against these; routes and
 * workers read the per-request caps. A local instance applies none of them.
 */
export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  requestsPerMinute: number;
  requestsPerDay: number;
  /** Most pages one parse or crawl request may ask for (max_pages, link_limit). */
  pagesPerRequest: number;
  /** Whether streamed parse responses are available. */
  streaming: boolean;
  /** Most URLs one map answers (`limit`). */
  mapLinks: number;
  /** Most pages one map's link walk reads (sitemaps are read whatever the plan). */
  mapPages: number;
  /** Most URLs in one batch scrape. */
  batchUrls: number;
  /** Most watches one key may have. */
  watches: number;
  /** Shortest gap a key's watch schedule may have between two checks, in seconds. */
  watchIntervalSeconds: number;
  /**
   * Most of a key's jobs running at once in each queue (fair share): the key's further jobs wait,
   * parked, without holding a worker until one of its running jobs ends.
   */
  runningJobs: number;
}

export type PlanTable = Readonly<Record<PlanName, PlanLimits>>;

export const PLANS: PlanTable = {
  free: {
    batchUrls: 10,
    mapLinks: 500,
    mapPages: 25,
    requestsPerMinute: 10,
    requestsPerDay: 100,
    pagesPerRequest: 5,
    streaming: false,
    runningJobs: 2,
    watches: 5,
    watchIntervalSeconds: 3_600,
  },
  pro: {
    batchUrls: 100,
    mapLinks: 5_000,
    mapPages: 500,
    requestsPerMinute: 100,
    requestsPerDay: 10_000,
    pagesPerRequest: 50,
    streaming: true,
    runningJobs: 10,
    watches: 100,
    watchIntervalSeconds: 300,
  },
  enterprise: {
    batchUrls: 1_000,
    mapLinks: 10_000,
    mapPages: 2_000,
    requestsPerMinute: 1_000,
    requestsPerDay: 100_000,
    pagesPerRequest: 100,
    streaming: true,
    runningJobs: 50,
    watches: 1_000,
    watchIntervalSeconds: 60,
  },
};

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}
