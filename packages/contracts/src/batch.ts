import { z } from 'zod';
import { webhookEvents, webhookHeaders } from './crawl';
import { httpUrl, oneOf, queryBoolean, queryInt } from './fields';
import { cookieDomainProblem, isSameSite, pageContextFields, waitForSelectorsField } from './page-controls';
import { SCRAPE_FORMATS, SCRAPE_LIMITS, contentScopeFields, type ScrapeResponse } from './scrape';

/** POST /v1/batch/scrape: many pages scraped as one job, followed at GET /v1/batch/scrape/<job_id>. */

export const BATCH_LIMITS = {
  /** URLs in one batch; hosted plans lower it (`batchUrls`). */
  maxUrls: 1_000,
  /** Results one lookup answers (`limit`). */
  page: { default: 100, max: 1_000 },
} as const;

/** Formats a batch answers (links with depth is a crawl, not a batch). */
export const BATCH_FORMATS = SCRAPE_FORMATS;

export const BATCH_WEBHOOK_EVENTS = ['batch.page', 'batch.completed', 'batch.failed'] as const;
export type BatchWebhookEvent = (typeof BATCH_WEBHOOK_EVENTS)[number];

export const batchScrapeRequest = z
  .object({
    urls: z
      .array(httpUrl(), { error: 'must be an array of URLs' })
      .min(1, 'must hold at least one URL')
      .max(BATCH_LIMITS.maxUrls, `must hold at most ${BATCH_LIMITS.maxUrls} URLs`),
    format: oneOf(BATCH_FORMATS).default('markdown'),
    include_html: z.boolean({ error: 'must be true or false' }).default(false),
    /** Absent: automatic (render only pages whose HTML is an empty script shell). */
    render_js: z.boolean({ error: 'must be true or false' }).optional(),
    /** Seconds each page may take. */
    timeout: z
      .number({ error: 'must be a whole number of seconds' })
      .int('must be a whole number of seconds')
      .min(SCRAPE_LIMITS.timeoutSeconds.min)
      .max(SCRAPE_LIMITS.timeoutSeconds.max)
      .default(SCRAPE_LIMITS.timeoutSeconds.default),
    ...pageContextFields,
    only_main_content: z.boolean({ error: 'must be true or false' }).default(true),
    include_selectors: contentScopeFields.include_selectors,
    exclude_selectors: contentScopeFields.exclude_selectors,
    wait_for_selectors: waitForSelectorsField.optional(),
    webhook_url: httpUrl().optional(),
    webhook_headers: webhookHeaders.optional(),
    /** Which events the webhook gets (default: batch.completed and batch.failed). */
    webhook_events: webhookEvents(BATCH_WEBHOOK_EVENTS).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.webhook_events && !value.webhook_url) {
      ctx.addIssue({ code: 'custom', path: ['webhook_events'], message: 'needs webhook_url' });
    }
    if (value.wait_for_selectors?.length && value.render_js === false) {
      ctx.addIssue({ code: 'custom', path: ['wait_for_selectors'], message: 'needs rendering (leave render_js unset or true)' });
    }
    // Headers, basic auth and host-only cookies go to a page's own site: with them, every URL must
    // be on one site, or they would reach sites the client meant to keep them from.
    const secrets = value.headers !== undefined || value.http_auth !== undefined || (value.cookies ?? []).some((cookie) => !cookie.domain);
    if (secrets && value.urls.length > 0 && value.urls.some((url) => !isSameSite(url, value.urls[0]!))) {
      const field = value.headers !== undefined ? 'headers' : value.http_auth !== undefined ? 'http_auth' : 'cookies';
      ctx.addIssue({ code: 'custom', path: [field], message: 'needs every url on one site (they go to the target site only)' });
    }
    // A cookie with a domain goes to the URLs of that site only; it must be one of the batch's sites.
    (value.cookies ?? []).forEach((cookie, index) => {
      if (cookie.domain === undefined) return;
      const problems = value.urls.map((url) => cookieDomainProblem(cookie.domain!, url));
      if (problems.every((problem) => problem !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['cookies', index, 'domain'],
          message: `is for ${cookie.domain}, the site of none of the urls`,
        });
      }
    });
  });

export type BatchScrapeRequest = z.infer<typeof batchScrapeRequest>;

/** `GET /v1/batch/scrape/<job_id>?offset=&limit=`: which results the answer holds. */
export const batchLookupQuery = z.object({
  offset: queryInt(0, BATCH_LIMITS.maxUrls).default(0),
  limit: queryInt(1, BATCH_LIMITS.page.max).default(BATCH_LIMITS.page.default),
  /** Unused; accepted so clients that send it are not refused. */
  fresh: queryBoolean().optional(),
});
export type BatchLookupQuery = z.infer<typeof batchLookupQuery>;

/** One URL's outcome: the scrape answer, or why it failed. */
export type BatchPageResult = ({ url: string } & ScrapeResponse) | { url: string; success: false; error: string; code: string };

/** A finished batch's result (saved to the blob store). */
export interface BatchData {
  total: number;
  completed: number;
  failed: number;
  /** In the order of `urls`. */
  data: BatchPageResult[];
  /** Set when page bodies were cut at RESULT_PAGE_MAX_BYTES / RESULT_MAX_BYTES. */
  truncated?: true;
}

/** A running batch's progress (job progress). */
export interface BatchProgress {
  total: number;
  completed: number;
  failed: number;
}

/** Seconds a batch may take: its pages a few at a time, each within its timeout, bounded. */
export function batchTimeoutSeconds(urls: number, pageTimeoutSeconds: number, concurrency = 4): number {
  return Math.min(3_600, 60 + Math.ceil(urls / Math.max(1, concurrency)) * pageTimeoutSeconds);
}
