import {
  SCRAPE_LIMITS,
  TimeoutError,
  contentScopeOf,
  pageContextOf,
  type ParseQueuePayload,
  type ScrapeJobPayload,
  type ScrapeJobResult,
  type ScrapeQuery,
} from '@sitelens/contracts';
import { saveJobResult } from '@sitelens/storage';
import { crawl, normalizeUrl, scrapeUrl, type WebDeps } from '@sitelens/web';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from './job-handler';
import { jobRequest } from './job-request';

/** The payload a `scrape` job carries; without `linkMapPages`, the default applies. */
function payloadOf(data: ParseQueuePayload): ScrapeJobPayload {
  const linkMapPages = typeof data.linkMapPages === 'number' ? data.linkMapPages : SCRAPE_LIMITS.linkMapPages;
  return { ...data, request: jobRequest<ScrapeQuery>(data, 'scrape'), linkMapPages };
}

/**
 * `scrape` jobs: one page as the GET /v1/scrape body (saved to the blob store, its bodies within
 * RESULT_PAGE_MAX_BYTES). The gateway waits for the answer, so the
 * work stops at the request's own deadline (`acceptedAt` + `timeout`), queue time included.
 */
export function createScrapeHandler(context: ParseWorkerContext): ParseJobHandler<'scrape'> {
  return async (job, logger) => {
    const { request, acceptedAt, timeoutSeconds, linkMapPages } = payloadOf(job.data);
    const budgetMs = acceptedAt + timeoutSeconds * 1000 - Date.now();
    const late = () => new TimeoutError(`Scraping ${request.url} took longer than the ${timeoutSeconds} s timeout`);
    if (budgetMs <= 0) throw late();
    const signal = AbortSignal.timeout(budgetMs);
    const deps: WebDeps = { ...context.web, logger };
    try {
      const page: ScrapeJobResult = await scrapeUrl(
        {
          url: request.url,
          format: request.format,
          includeHtml: request.include_html,
          renderJs: request.render_js ?? 'auto',
          timeoutMs: budgetMs,
          signal,
          maxBytes: context.config.results.pageMaxBytes,
          context: pageContextOf(request),
          scope: contentScopeOf(request),
        },
        deps,
      );
      const result =
        request.format === 'links'
          ? await mapLinks(page, request, { pages: linkMapPages, concurrency: context.config.crawlConcurrency, signal }, deps)
          : page;
      // The result goes to the blob store; Redis keeps the reference only.
      return await saveJobResult(context.store, job.id, result);
    } catch (error) {
      // Whatever the abort surfaced as (a socket error, a render failure), the cause is the deadline.
      if (signal.aborted) throw late();
      throw error;
    }
  };
}

/**
 * format=links: the page's links, and with depth > 1 the links of the site's pages within
 * depth - 1 hops of it (a small crawl), deduplicated and cut at max_links (0: no cap). Pages are
 * read in the order their links were found, so the list does not depend on which fetch finished
 * first. `content` holds the links one per line, as Supacrawler's engine answers.
 */
async function mapLinks(
  page: ScrapeJobResult,
  request: ScrapeQuery,
  options: { pages: number; concurrency: number; signal: AbortSignal },
  deps: WebDeps,
): Promise<ScrapeJobResult> {
  const cap = request.max_links || Number.POSITIVE_INFINITY;
  const found = new Set(page.links);
  if (request.depth > 1 && found.size < cap) {
    const explored = await crawl(
      {
        url: page.url,
        depth: request.depth - 1,
        limit: options.pages,
        format: 'text',
        concurrency: options.concurrency,
        signal: options.signal,
        context: pageContextOf(request),
      },
      deps,
    );
    const unread = new Map(Object.entries(explored.crawl_data));
    const read = (url: string) => {
      const key = normalizeUrl(url) ?? url;
      for (const link of unread.get(key)?.links ?? []) found.add(link);
      unread.delete(key);
    };
    read(page.url);
    // A Set iterates over what is added while iterating: breadth-first over the found links.
    for (const link of found) {
      if (found.size >= cap || unread.size === 0) break;
      read(link);
    }
    // Pages reached only through the sitemap come last.
    for (const url of [...unread.keys()]) read(url);
  }
  const links = [...found].slice(0, cap);
  const metadata = { ...page.metadata, depth: request.depth };
  return { ...page, content: links.join('\n'), links, discovered: links.length, metadata };
}
