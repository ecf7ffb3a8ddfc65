import { errorMessage } from '@sitelens/contracts';
import type { ParseAction } from '@sitelens/parse-input';
import { crawl, scrapeUrl, type WebDeps } from '@sitelens/web';

/** A page ready for extraction: its final URL and main-content markdown. */
export interface CollectedPage {
  url: string;
  markdown: string;
}

export interface CollectedPages {
  pages: CollectedPage[];
  /** Pages that could not be fetched; they are skipped (spec 7, rule 3). */
  errors: { url: string; error: string }[];
  warnings: string[];
  /** Pages found: fetched, failed, or (while crawling) admitted. */
  totalPages: number;
}

export interface CollectionProgress {
  pagesProcessed: number;
  totalPages: number;
}

export interface CollectOptions {
  urls: string[];
  action: ParseAction;
  /** Link hops from the start page (max_depth). */
  maxDepth: number;
  /** Pages in the result, failures and the start page included (max_pages). */
  maxPages: number;
  /** Pages fetched at once (CRAWL_CONCURRENCY). */
  concurrency: number;
  signal: AbortSignal;
  onProgress(progress: CollectionProgress): void;
}

function hasContent(markdown: string | undefined): markdown is string {
  return markdown !== undefined && markdown.trim().length > 0;
}

/** Scrapes each URL (a bounded number at once); failures are listed, not thrown. */
async function scrapeEach(urls: string[], web: WebDeps, options: CollectOptions, into: CollectedPages): Promise<void> {
  const results: (CollectedPage | undefined)[] = urls.map(() => undefined);
  let next = 0;
  const report = () =>
    options.onProgress({ pagesProcessed: into.pages.length + results.filter(Boolean).length, totalPages: into.totalPages });
  const worker = async () => {
    while (next < urls.length) {
      const index = next++;
      const url = urls[index]!;
      try {
        const page = await scrapeUrl({ url, format: 'markdown', signal: options.signal }, web);
        results[index] = { url: page.url, markdown: page.content };
      } catch (error) {
        if (options.signal.aborted) throw options.signal.reason;
        into.errors.push({ url, error: errorMessage(error) });
      }
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, urls.length)) }, worker));
  into.pages.push(...results.filter((page): page is CollectedPage => page !== undefined));
}

/**
 * Crawls from the first URL. Resolves the crawl's failure reason instead of pages when the crawl
 * threw or no page yielded any content, so the caller can fall back to a scrape.
 */
async function crawlFirst(web: WebDeps, options: CollectOptions, into: CollectedPages): Promise<string | undefined> {
  const start = options.urls[0]!;
  try {
    const result = await crawl(
      {
        url: start,
        depth: options.maxDepth,
        limit: options.maxPages,
        format: 'markdown',
        concurrency: options.concurrency,
        signal: options.signal,
        onProgress: (statistics) => {
          // The crawler's first report comes before any page is known: nothing to tell yet.
          if (statistics.total_pages === 0) return;
          into.totalPages = statistics.total_pages;
          options.onProgress({ pagesProcessed: statistics.successful_pages, totalPages: statistics.total_pages });
        },
      },
      web,
    );
    const pages = Object.entries(result.crawl_data).filter(([, page]) => hasContent(page.markdown));
    if (pages.length === 0) {
      return result.error_data[start] ?? Object.values(result.error_data)[0] ?? 'no page had any content';
    }
    into.pages.push(...pages.map(([url, page]) => ({ url, markdown: page.markdown })));
    into.errors.push(...Object.entries(result.error_data).map(([url, error]) => ({ url, error })));
    into.totalPages = result.statistics.total_pages;
    return undefined;
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    return errorMessage(error);
  }
}

/**
 * Collects the pages a parse works on, through the web layer. Scrape: each URL of the prompt, up to
 * `maxPages`. Crawl: the site of the first URL, bounded by `maxDepth` and `maxPages`, then the
 * prompt's other URLs while pages remain. A crawl that fails falls back to scraping the first URL
 * (spec 7, rule 1); pages that cannot be fetched are skipped and listed (rule 3).
 */
export async function collectPages(options: CollectOptions, web: WebDeps): Promise<CollectedPages> {
  const collected: CollectedPages = { pages: [], errors: [], warnings: [], totalPages: 0 };
  let toScrape = options.urls.slice(0, options.maxPages);

  if (options.action === 'crawl') {
    const failure = await crawlFirst(web, options, collected);
    const [start, ...others] = options.urls;
    if (failure !== undefined) {
      collected.warnings.push(`Crawling ${start} failed (${failure}); fell back to scraping it as a single page`);
      collected.totalPages = 0;
    } else {
      const seen = new Set(collected.pages.map((page) => page.url));
      const room = Math.max(0, options.maxPages - collected.pages.length - collected.errors.length);
      toScrape = others.filter((url) => !seen.has(url)).slice(0, room);
    }
  }
  collected.totalPages += toScrape.length;
  if (toScrape.length > 0) await scrapeEach(toScrape, web, options, collected);
  return collected;
}
