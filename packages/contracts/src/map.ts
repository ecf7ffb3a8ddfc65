import { z } from 'zod';
import { pathGlobs } from './crawl';
import { boundedInt, httpUrl, oneOf } from './fields';

/** POST /v1/map: a site's URLs, answered synchronously (the gateway waits for a parse-queue job). */

export const MAP_SITEMAP_MODES = ['include', 'only', 'skip'] as const;

export const MAP_LIMITS = {
  /** URLs answered; hosted plans lower the maximum (`mapLinks`). */
  limit: { min: 1, max: 10_000, default: 1_000 },
  maxSearchLength: 200,
  /** Seconds the link walk may take before the answer is what it found. */
  walkSeconds: 25,
  /** Seconds a map job may take in all (sitemaps, walk, answer). */
  timeoutSeconds: 45,
} as const;

export const mapRequest = z.object({
  url: httpUrl(),
  /** Left optional so the plan cap can lower the default instead of refusing it. */
  limit: boundedInt(MAP_LIMITS.limit.min, MAP_LIMITS.limit.max).optional(),
  search: z
    .string({ error: 'must be a string' })
    .trim()
    .max(MAP_LIMITS.maxSearchLength, `must be at most ${MAP_LIMITS.maxSearchLength} characters`)
    .optional()
    .describe('Words ranking the URLs whose path or page title holds them first'),
  include_subdomains: z.boolean({ error: 'must be true or false' }).default(false),
  sitemap: oneOf(MAP_SITEMAP_MODES)
    .default('include')
    .describe('include: sitemaps and a link walk; only: sitemaps alone; skip: the link walk alone'),
  include_patterns: pathGlobs().describe('Path globs a URL must match to be listed (the start page always is)'),
  exclude_patterns: pathGlobs().describe('Path globs a URL must not match to be listed; they win over include_patterns'),
});

export type MapRequest = z.infer<typeof mapRequest>;

/** What the map job carries: the request with the limit and the walk's page cap settled by the gateway. */
export type MapJobRequest = Omit<MapRequest, 'limit'> & { limit: number; max_pages: number };

export const mapResponseSchema = z.object({
  success: z.literal(true),
  url: z.string(),
  links: z.array(z.string()),
  /** URLs found, before `limit` cut the list. */
  total: z.number().int(),
});

export type MapResponse = z.infer<typeof mapResponseSchema>;
