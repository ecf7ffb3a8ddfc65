/** GET /v1/scrape's body, built from one scraped page (the contract's field names). */
import type { PageContext } from '@sitelens/contracts';
import { scrapePage, type ContentFormat, type ContentScope, type ScrapedPage } from './scrape-page';
import { openResources, type WebDeps } from './deps';
import { ByteBudget } from './byte-cap';
import type { PageMetadata } from './content/metadata';

export interface ScrapeOptions {
  url: string;
  format?: ContentFormat;
  /** Adds the page's HTML as `html`. */
  includeHtml?: boolean;
  renderJs?: boolean | 'auto';
  timeoutMs?: number;
  signal?: AbortSignal;
  respectRobots?: boolean;
  /** Cap on the page's bodies (content, then html), in UTF-8 bytes. Default: none. */
  maxBytes?: number;
  /** Headers, cookies, user agent, basic auth, language, consent handling, selectors to wait for. */
  context?: PageContext;
  /** What part of the page is its content; the main content by default. */
  scope?: ContentScope;
}

export interface ScrapeMetadata extends PageMetadata {
  status_code: number;
  source_url: string;
}

export interface ScrapeResult {
  success: true;
  url: string;
  title: string;
  content: string;
  html?: string;
  links: string[];
  discovered: number;
  metadata: ScrapeMetadata;
  /** Set when `content` or `html` was cut at the page's byte cap. */
  truncated?: true;
}

export function toScrapeResult(
  page: ScrapedPage,
  format: ContentFormat,
  includeHtml: boolean,
  maxBytes = Number.POSITIVE_INFINITY,
): ScrapeResult {
  const { content } = page;
  const body = format === 'markdown' ? content.markdown : format === 'text' ? content.text : format === 'html' ? content.contentHtml : '';
  const capped = new ByteBudget(maxBytes, maxBytes).takePage(includeHtml ? [body ?? '', page.html] : [body ?? '']);
  return {
    success: true,
    url: page.url,
    title: content.title,
    content: capped.bodies[0]!,
    ...(includeHtml ? { html: capped.bodies[1]! } : {}),
    links: content.links,
    discovered: content.links.length,
    metadata: { status_code: page.status, source_url: page.requestedUrl, ...content.metadata },
    ...(capped.truncated ? { truncated: true as const } : {}),
  };
}

/**
 * Scrapes one URL. Throws the contract's errors: UPSTREAM_NOT_FOUND (404 upstream), TIMEOUT,
 * ROBOTS_DISALLOWED, URL_BLOCKED, UPSTREAM_ERROR, UNPROCESSABLE (not a page).
 */
export async function scrapeUrl(options: ScrapeOptions, deps: WebDeps): Promise<ScrapeResult> {
  const format = options.format ?? 'markdown';
  const resources = openResources(deps);
  try {
    const page = await scrapePage({ ...options, format }, deps, resources);
    return toScrapeResult(page, format, options.includeHtml ?? false, options.maxBytes);
  } finally {
    await resources.close();
  }
}
