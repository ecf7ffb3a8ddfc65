import { z } from 'zod';
import { boundedInt, httpUrl, oneOf } from './fields';
import { contentScopeFields } from './scrape';
import { HTTP_TOKEN, checkPageContext, pageContextFields, waitForSelectorsField } from './page-controls';

/** POST /v1/crawl: a crawl job, looked up later at GET /v1/crawl/<job_id>. */

export const CRAWL_FORMATS = ['markdown', 'html', 'text'] as const;
export type CrawlFormat = (typeof CRAWL_FORMATS)[number];

/**
 * The Supacrawler JS client's own tests send `format: 'links'` to crawl: it is taken as markdown
 * (every page carries its links anyway) rather than refused.
 */
const crawlFormat = oneOf([...CRAWL_FORMATS, 'links'])
  .default('markdown')
  .transform((value): CrawlFormat => (value === 'links' ? 'markdown' : value));

export const CRAWL_LIMITS = {
  depth: { min: 1, max: 5, default: 1 },
  /** Pages in the result, the start page included. Hosted plans lower the maximum. */
  linkLimit: { min: 1, max: 1000, default: 10 },
  maxPatterns: 50,
  maxPatternLength: 256,
  maxWebhookHeaders: 20,
  /** Longest max_age: pages are kept for reuse a week. */
  maxAgeSeconds: 7 * 86_400,
} as const;

/** Longest webhook header name. */
const MAX_HEADER_NAME_LENGTH = 100;

/** `webhook_headers`: extra headers on the webhook's POST (crawl and screenshot). */
export const webhookHeaders = z
  .record(z.string(), z.string({ error: 'must map header names to string values' }).max(4096, 'values must be at most 4096 characters'))
  .refine((headers) => Object.keys(headers).length <= CRAWL_LIMITS.maxWebhookHeaders, {
    message: `must hold at most ${CRAWL_LIMITS.maxWebhookHeaders} headers`,
  })
  .refine((headers) => Object.keys(headers).every((name) => name.length <= MAX_HEADER_NAME_LENGTH && HTTP_TOKEN.test(name)), {
    message: 'holds an invalid header name',
  })
  .refine((headers) => Object.values(headers).every((value) => !/[\r\n\0]/.test(value)), {
    message: 'values must not contain line breaks',
  });

/** Webhook events a crawl can send; without `webhook_events`, the end (completed or failed) only. */
export const CRAWL_WEBHOOK_EVENTS = ['crawl.started', 'crawl.page', 'crawl.completed', 'crawl.failed'] as const;
export type CrawlWebhookEvent = (typeof CRAWL_WEBHOOK_EVENTS)[number];

/** `webhook_events`: which of a job's events the webhook gets. */
export const webhookEvents = <const T extends readonly [string, ...string[]]>(events: T) =>
  z
    .array(z.enum(events, { error: `must be one of ${events.join(', ')}` }), { error: `must be an array of ${events.join(', ')}` })
    .min(1, 'must name at least one event')
    .max(events.length)
    .transform((list) => [...new Set(list)]);

/** A list of path globs: at most `maxPatterns`, each at most `maxPatternLength` characters. */
export const pathGlobs = () =>
  z
    .array(
      z
        .string({ error: 'must be path glob strings' })
        .trim()
        .min(1, 'must not be empty')
        .max(CRAWL_LIMITS.maxPatternLength, `must be at most ${CRAWL_LIMITS.maxPatternLength} characters`),
    )
    .max(CRAWL_LIMITS.maxPatterns, `must hold at most ${CRAWL_LIMITS.maxPatterns} patterns`)
    .default([]);

/**
 * The body. Supacrawler clients also send proxy and user-agent settings, `fresh` and `type`:
 * unknown fields are ignored, as the contract says.
 */
export const crawlCreateRequest = z
  .object({
    url: httpUrl(),
    format: crawlFormat,
    depth: boundedInt(CRAWL_LIMITS.depth.min, CRAWL_LIMITS.depth.max).default(CRAWL_LIMITS.depth.default),
    /** Left optional so the plan cap can lower the default instead of refusing it. */
    link_limit: boundedInt(CRAWL_LIMITS.linkLimit.min, CRAWL_LIMITS.linkLimit.max).optional(),
    /** Path globs ("/blog/*") a discovered page must match to be followed. */
    patterns: pathGlobs().describe(
      `Path globs ("/blog/*", "/docs/**", "{a,b}", "[a-z]", "?") a discovered page must match to be followed: ` +
        `at most ${CRAWL_LIMITS.maxPatterns}, each at most ${CRAWL_LIMITS.maxPatternLength} characters; matched in linear time`,
    ),
    /** Path globs a discovered page must not match; they win over `patterns`. */
    exclude_patterns: pathGlobs().describe(
      'Path globs a discovered page must not match to be followed ("/blog/tag/*", "/**/print"); they win over patterns. ' +
        `Same syntax and limits as patterns`,
    ),
    include_subdomains: z.boolean().default(false),
    include_html: z.boolean().default(false),
    /** Absent: automatic (render only pages whose HTML is an empty script shell). */
    render_js: z.boolean().optional(),
    webhook_url: httpUrl().optional(),
    webhook_headers: webhookHeaders.optional(),
    /** Seconds: a page this crawl's key fetched (with the same options) that recently is reused, not fetched again. */
    max_age: boundedInt(0, CRAWL_LIMITS.maxAgeSeconds)
      .optional()
      .describe(`Seconds (at most ${CRAWL_LIMITS.maxAgeSeconds}): reuse a page fetched that recently by a crawl with the same options`),
    /** Which events the webhook gets (default: crawl.completed and crawl.failed). */
    webhook_events: webhookEvents(CRAWL_WEBHOOK_EVENTS).optional(),
    /** Every page is loaded with it; headers, credentials and host-only cookies go to the crawled site only. */
    ...pageContextFields,
    /** What part of each page is its content (main content by default). */
    only_main_content: z.boolean({ error: 'must be true or false' }).default(true),
    include_selectors: contentScopeFields.include_selectors,
    exclude_selectors: contentScopeFields.exclude_selectors,
    /** CSS selectors that must all be in each page before it is read; pages are rendered. */
    wait_for_selectors: waitForSelectorsField.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.webhook_events && !value.webhook_url) {
      ctx.addIssue({ code: 'custom', path: ['webhook_events'], message: 'needs webhook_url' });
    }
    if (value.wait_for_selectors?.length && value.render_js === false) {
      ctx.addIssue({ code: 'custom', path: ['wait_for_selectors'], message: 'needs rendering (leave render_js unset or true)' });
    }
    checkPageContext(value, ctx);
  });

export type CrawlCreateRequest = z.infer<typeof crawlCreateRequest>;

/** What the crawl job carries: the request with the page cap settled by the gateway. */
export type CrawlJobRequest = Omit<CrawlCreateRequest, 'link_limit'> & { link_limit: number };

/** Seconds a crawl may run: generous per page, bounded so no job is "processing" for hours. */
export function crawlTimeoutSeconds(linkLimit: number): number {
  return Math.min(3_600, 120 + linkLimit * 3);
}

export const crawlStatisticsSchema = z.object({
  total_pages: z.number().int(),
  successful_pages: z.number().int(),
  failed_pages: z.number().int(),
});

export type CrawlStatistics = z.infer<typeof crawlStatisticsSchema>;

/** A completed crawl's `data` (the Supacrawler clients' CrawlJobData); also the job's result. */
export const crawlDataSchema = z.object({
  url: z.string(),
  crawl_data: z.record(
    z.string(),
    z.object({
      /** The page in the crawl's format (markdown, or text for format text). */
      markdown: z.string(),
      html: z.string().optional(),
      links: z.array(z.string()),
      metadata: z.object({ title: z.string(), status_code: z.number().int() }),
      /** Set when the page's bodies were cut at a byte cap. */
      truncated: z.literal(true).optional(),
    }),
  ),
  error_data: z.record(z.string(), z.string()),
  statistics: crawlStatisticsSchema,
  /** Set when a page's bodies were cut; `note` names the cap (RESULT_PAGE_MAX_BYTES or RESULT_MAX_BYTES). */
  truncated: z.literal(true).optional(),
  note: z.string().optional(),
  /** Set when the crawl was cancelled (DELETE /v1/crawl/<job_id>): the pages it had by then. */
  cancelled: z.literal(true).optional(),
});

export type CrawlData = z.infer<typeof crawlDataSchema>;

/** What a running crawl reports as job progress; the lookup shows it as `data`. */
export interface CrawlProgress {
  statistics: CrawlStatistics;
}
