/** GET /v1/scrape's body, built from one scraped page (the contract's field names). */
import { scrapePage, type ContentFormat, type ScrapedPage } from './scrape-page';
import { openResources, type WebDeps } from './deps';
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
}

export function toScrapeResult(page: ScrapedPage, format: ContentFormat, includeHtml: boolean): ScrapeResult {
  const { content } = page;
  const body =
    format === 'markdown' ? content.markdown : format === 'text' ? content.text : format === 'html' ? content.contentHtml : '';
  return {
    success: true,
    url: page.url,
    title: content.title,
    content: body ?? '',
    ...(includeHtml ? { html: page.html } : {}),
    links: content.links,
    discovered: content.links.length,
    metadata: { status_code: page.status, source_url: page.requestedUrl, ...content.metadata },
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
    return toScrapeResult(page, format, options.includeHtml ?? false);
  } finally {
    await resources.close();
  }
}
