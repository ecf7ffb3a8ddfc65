import { z } from 'zod';
import { cssSelector, httpUrl, oneOf, queryBoolean, queryInt } from './fields';
import { checkPageContext, pageContextQueryFields, waitForSelectorsField } from './page-controls';

/** GET /v1/scrape: one page, answered synchronously (the gateway waits for a parse-queue job). */

export const SCRAPE_FORMATS = ['markdown', 'html', 'text', 'links'] as const;
export type ScrapeFormat = (typeof SCRAPE_FORMATS)[number];

export const SCRAPE_LIMITS = {
  /** Seconds the whole scrape may take; past it the answer is 408. */
  timeoutSeconds: { min: 1, max: 120, default: 30 },
  /** format=links: link hops explored (0 and 1 are the page's own links, as for Supacrawler). */
  depth: { min: 0, max: 5, default: 1 },
  /** format=links: most links answered; 0 is no cap (Supacrawler's clients allow it). */
  maxLinks: { min: 0, max: 10_000 },
  /** format=links with depth > 1: pages visited for links (lowered to a hosted plan's cap). */
  linkMapPages: 10,
  /** Seconds a scrape result is reused for the same request (`fresh=true` skips it). */
  cacheSeconds: 300,
} as const;

/** include_selectors / exclude_selectors: at most this many, each at most this long. */
export const CONTENT_SELECTOR_LIMITS = { maxSelectors: 20, maxSelectorLength: 500 } as const;

/** One CSS selector or a list (a query string repeats the parameter). */
const selectorList = () =>
  z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z
      .array(cssSelector(CONTENT_SELECTOR_LIMITS.maxSelectorLength), { error: 'must be an array of CSS selectors' })
      .max(CONTENT_SELECTOR_LIMITS.maxSelectors, `must hold at most ${CONTENT_SELECTOR_LIMITS.maxSelectors} selectors`),
  );

/**
 * What part of a page is its content (scrape and crawl): the main content by default; the whole
 * page with `only_main_content: false`; the elements `include_selectors` match instead; without
 * what `exclude_selectors` match. Links and metadata always come from the whole page.
 */
export const contentScopeFields = {
  only_main_content: queryBoolean().default(true),
  include_selectors: selectorList().optional(),
  exclude_selectors: selectorList().optional(),
};

/** The content scope as the web layer's content request takes it. */
export function contentScopeOf(request: {
  only_main_content?: boolean;
  include_selectors?: readonly string[];
  exclude_selectors?: readonly string[];
}): { mainContent?: false; includeSelectors?: readonly string[]; excludeSelectors?: readonly string[] } {
  return {
    ...(request.only_main_content === false ? { mainContent: false as const } : {}),
    ...(request.include_selectors?.length ? { includeSelectors: request.include_selectors } : {}),
    ...(request.exclude_selectors?.length ? { excludeSelectors: request.exclude_selectors } : {}),
  };
}

/**
 * The query (and POST /v1/scrape's JSON body, which takes the same fields). Supacrawler clients
 * also send proxy settings and rotate_user_agent...: unknown parameters are ignored, as the
 * contract says. Their `user_agent` and `wait_for_selectors` are honoured, with the rest of the
 * page context (headers, cookies and http_auth as JSON text in a query string).
 */
export const scrapeQuery = z
  .object({
    url: httpUrl(),
    format: oneOf(SCRAPE_FORMATS).default('markdown'),
    include_html: queryBoolean().default(false),
    /** Absent: automatic (render in Chromium only when the fetched HTML is an empty script shell). */
    render_js: queryBoolean().optional(),
    /** Skip the short result cache. */
    fresh: queryBoolean().default(false),
    depth: queryInt(SCRAPE_LIMITS.depth.min, SCRAPE_LIMITS.depth.max).default(SCRAPE_LIMITS.depth.default),
    max_links: queryInt(SCRAPE_LIMITS.maxLinks.min, SCRAPE_LIMITS.maxLinks.max).optional(),
    timeout: queryInt(SCRAPE_LIMITS.timeoutSeconds.min, SCRAPE_LIMITS.timeoutSeconds.max).default(SCRAPE_LIMITS.timeoutSeconds.default),
    ...pageContextQueryFields,
    ...contentScopeFields,
    /** CSS selectors that must all be in the page before it is read; the page is rendered. */
    wait_for_selectors: waitForSelectorsField.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.wait_for_selectors?.length && value.render_js === false) {
      ctx.addIssue({ code: 'custom', path: ['wait_for_selectors'], message: 'needs rendering (leave render_js unset or true)' });
    }
    checkPageContext(value, ctx);
  });

export type ScrapeQuery = z.infer<typeof scrapeQuery>;

const optionalText = z.string().optional();

/** The 200 body (the Supacrawler clients' ScrapeResponse); also the scrape job's result. */
export const scrapeResponseSchema = z.object({
  success: z.literal(true),
  url: z.string(),
  title: z.string(),
  content: z.string(),
  html: optionalText,
  links: z.array(z.string()),
  discovered: z.number().int(),
  metadata: z.object({
    status_code: z.number().int(),
    source_url: z.string(),
    title: z.string(),
    description: optionalText,
    language: optionalText,
    canonical: optionalText,
    favicon: optionalText,
    og_title: optionalText,
    og_description: optionalText,
    og_image: optionalText,
    /** format=links: the link hops explored. */
    depth: z.number().int().optional(),
    /** Documents (PDF): pages, and the author the file names. */
    page_count: z.number().int().optional(),
    author: optionalText,
  }),
  /** Set when `content` or `html` was cut at the page's byte cap (RESULT_PAGE_MAX_BYTES). */
  truncated: z.literal(true).optional(),
});

export type ScrapeResponse = z.infer<typeof scrapeResponseSchema>;
