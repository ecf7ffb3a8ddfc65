/**
 * The crawler: breadth-first from a start page, level by level (so which pages a limit keeps does
 * not depend on timing), same site only, robots.txt obeyed before a page is counted or fetched,
 * sitemap.xml used for discovery, pages fetched concurrently with a politeness limit per host.
 * Every page goes through scrapePage, the path scrape and parse use too.
 */
import { errorMessage, type PageContext } from '@sitelens/contracts';
import { assertPublicUrl } from '@sitelens/egress';
import { normalizeUrl } from './url-normalize';
import { CrawlScope } from './crawl-scope';
import { HostGate } from './host-gate';
import { discoverFromSitemaps, sitemapLocations } from './sitemap';
import { scrapePage, type ContentScope, type ScrapedPage } from './scrape-page';
import { openResources, urlCheckOf, type WebDeps, type WebResources } from './deps';
import { ByteBudget } from './byte-cap';
import type { RobotsRules } from './robots';

export interface CrawlStatistics {
  total_pages: number;
  successful_pages: number;
  failed_pages: number;
}

export interface CrawlPage {
  /** The page content in the crawl's format (markdown, or text when format is text). */
  markdown: string;
  /** The page's HTML, when include_html or format html. */
  html?: string;
  links: string[];
  metadata: { title: string; status_code: number };
  /** Set when the page's bodies were cut at the per-page or the crawl's byte cap. */
  truncated?: true;
}

export interface CrawlResult {
  url: string;
  crawl_data: Record<string, CrawlPage>;
  error_data: Record<string, string>;
  statistics: CrawlStatistics;
  /** Set when a page's bodies were cut (see each page's `truncated`); `note` says which cap. */
  truncated?: true;
  note?: string;
  /** Set when the crawl was stopped (`stopSignal`): the pages so far. */
  cancelled?: true;
}

/** Pages fetched recently, kept for reuse (`max_age`): a hit skips the fetch. */
export interface PageCache {
  get(url: string): Promise<ScrapedPage | undefined>;
  put(url: string, page: ScrapedPage): Promise<void>;
}

export interface CrawlPageEvent {
  url: string;
  depth: number;
  page: CrawlPage;
  scraped: ScrapedPage;
}

export interface CrawlOptions {
  url: string;
  /** Link hops from the start page: 0 is the start page alone, 1 adds the pages it links to. */
  depth?: number;
  /** Pages in the result (successes and failures), the start page included. */
  limit?: number;
  format?: 'markdown' | 'html' | 'text';
  includeHtml?: boolean;
  includeSubdomains?: boolean;
  /** Path globs a discovered page must match to be followed; the start page is always crawled. */
  patterns?: string[];
  /** Path globs a discovered page must not match to be followed (they win over `patterns`). */
  excludePatterns?: string[];
  /** Default false; 'auto' renders script-shell pages when a renderer is given. */
  renderJs?: boolean | 'auto';
  /** Default true. */
  useSitemap?: boolean;
  /** Default true. */
  respectRobots?: boolean;
  /** Pages in flight at once (default 4). */
  concurrency?: number;
  /** Pages in flight per host (default 2); 1 with a crawl-delay. */
  perHostConcurrency?: number;
  /** Upper bound on a robots.txt crawl-delay (default 30 s). */
  maxCrawlDelayMs?: number;
  pageTimeoutMs?: number;
  /** Cap on one page's bodies (markdown, then html), in UTF-8 bytes. Default: none. */
  maxPageBytes?: number;
  /** Cap on all pages' bodies together, in UTF-8 bytes. Default: none. */
  maxResultBytes?: number;
  signal?: AbortSignal;
  /** Stops the crawl (a client cancelled it): pages in flight are dropped, the result holds the pages so far. */
  stopSignal?: AbortSignal;
  /** Every page is loaded with it (headers, cookies and credentials on the crawled site only). */
  context?: PageContext;
  /** What part of each page is its content; the main content by default. */
  scope?: ContentScope;
  /** Pages read from it when fresh enough, and written to it when fetched. */
  pageCache?: PageCache;
  onProgress?: (statistics: CrawlStatistics) => void;
  onPage?: (event: CrawlPageEvent) => void | Promise<void>;
}

interface Candidate {
  url: string;
  depth: number;
}

class Crawl {
  readonly result: CrawlResult;
  private readonly scope: CrawlScope;
  private readonly gate: HostGate;
  private readonly seen = new Set<string>();
  private admitted = 0;
  private readonly limit: number;
  private readonly budget: ByteBudget;
  /** The caller's signal and the stop signal together: what every page's work listens to. */
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly options: CrawlOptions,
    private readonly deps: WebDeps,
    private readonly resources: WebResources,
    private readonly start: string,
  ) {
    this.limit = Math.max(1, options.limit ?? 10);
    this.scope = new CrawlScope(start, options);
    this.gate = new HostGate(Math.max(1, options.perHostConcurrency ?? 2), deps.clock);
    this.result = {
      url: options.url,
      crawl_data: {},
      error_data: {},
      statistics: { total_pages: 0, successful_pages: 0, failed_pages: 0 },
    };
    this.seen.add(start);
    const signals = [options.signal, options.stopSignal].filter((signal): signal is AbortSignal => signal !== undefined);
    this.signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const unlimited = Number.POSITIVE_INFINITY;
    this.budget = new ByteBudget(options.maxPageBytes ?? unlimited, options.maxResultBytes ?? unlimited);
  }

  private progress(): void {
    const s = this.result.statistics;
    s.successful_pages = Object.keys(this.result.crawl_data).length;
    s.failed_pages = Object.keys(this.result.error_data).length;
    s.total_pages = Math.max(this.admitted, s.successful_pages + s.failed_pages);
    this.options.onProgress?.({ ...s });
  }

  private rules(url: string): Promise<RobotsRules | undefined> {
    if (this.options.respectRobots === false) return Promise.resolve(undefined);
    return this.resources.robots.rulesFor(url, this.signal);
  }

  /** Drops what robots.txt disallows, before anything is counted or fetched. */
  private async allowed(candidates: Candidate[]): Promise<Candidate[]> {
    const rules = await Promise.all(candidates.map((c) => this.rules(c.url)));
    return candidates.filter((c, i) => {
      const r = rules[i];
      if (!r || r.isAllowed(c.url)) return true;
      // The start page gets a reason; other disallowed pages are silently left out.
      if (c.depth === 0) this.result.error_data[c.url] = r.unavailable?.message ?? `robots.txt disallows ${c.url}`;
      return false;
    });
  }

  private async visit(candidate: Candidate): Promise<string[]> {
    const cache = this.options.pageCache;
    let page: ScrapedPage | undefined = await cache?.get(candidate.url).catch(() => undefined);
    if (page) return this.keep(candidate, page);
    const host = new URL(candidate.url).host;
    const rules = await this.rules(candidate.url);
    const delay = Math.min(rules?.crawlDelayMs ?? 0, this.options.maxCrawlDelayMs ?? 30_000);
    const release = await this.gate.acquire(host, delay, this.signal);
    try {
      page = await scrapePage(
        {
          url: candidate.url,
          format: this.options.format === 'text' ? 'text' : 'markdown',
          renderJs: this.options.renderJs ?? false,
          timeoutMs: this.options.pageTimeoutMs,
          signal: this.signal,
          respectRobots: this.options.respectRobots,
          ...(this.options.context ? { context: this.options.context } : {}),
          ...(this.options.scope ? { scope: this.options.scope } : {}),
        },
        this.deps,
        this.resources,
      );
    } catch (error) {
      if (this.signal?.aborted) throw this.signal.reason;
      this.result.error_data[candidate.url] = errorMessage(error);
      this.deps.logger?.debug({ url: candidate.url, err: errorMessage(error) }, 'crawl page failed');
      return [];
    } finally {
      release();
    }
    await cache?.put(candidate.url, page).catch(() => undefined);
    return this.keep(candidate, page);
  }

  /** Records a page read (fetched or reused) and returns its links. */
  private async keep(candidate: Candidate, page: ScrapedPage): Promise<string[]> {
    const key = normalizeUrl(page.url) ?? candidate.url;
    if (candidate.depth === 0) this.scope.addHost(new URL(key).hostname);
    // A redirect to a page already crawled, or off the site, gives its slot back.
    if (key !== candidate.url && (this.seen.has(key) || !this.scope.contains(key))) {
      this.admitted -= 1;
      return [];
    }
    this.seen.add(key);
    const crawlPage: CrawlPage = {
      markdown: (this.options.format === 'text' ? page.content.text : page.content.markdown) ?? '',
      links: page.content.links,
      metadata: { title: page.content.title, status_code: page.status },
    };
    const withHtml = this.options.includeHtml || this.options.format === 'html';
    const capped = this.budget.takePage(withHtml ? [crawlPage.markdown, page.html] : [crawlPage.markdown]);
    crawlPage.markdown = capped.bodies[0]!;
    if (withHtml) crawlPage.html = capped.bodies[1]!;
    if (capped.truncated) {
      crawlPage.truncated = true;
      this.result.truncated = true;
    }
    this.result.crawl_data[key] = crawlPage;
    await this.options.onPage?.({ url: key, depth: candidate.depth, page: crawlPage, scraped: page });
    return page.content.links;
  }

  /** Crawls one level with a pool of workers; returns each page's links in level order. */
  private async runLevel(level: Candidate[]): Promise<string[][]> {
    const links: string[][] = level.map(() => []);
    let next = 0;
    const worker = async () => {
      while (next < level.length && this.admitted < this.limit) {
        this.signal?.throwIfAborted();
        const index = next++;
        this.admitted += 1;
        links[index] = await this.visit(level[index]!);
        this.progress();
      }
    };
    const workers = Math.max(1, Math.min(this.options.concurrency ?? 4, level.length));
    await Promise.all(Array.from({ length: workers }, worker));
    return links;
  }

  /** The next level: links in page order, then (after the start page) sitemap URLs. */
  private nextLevel(links: string[][], depth: number, extra: string[]): Candidate[] {
    const level: Candidate[] = [];
    for (const raw of [...links.flat(), ...extra]) {
      const url = normalizeUrl(raw);
      if (!url || this.seen.has(url) || !this.scope.follows(url)) continue;
      this.seen.add(url);
      level.push({ url, depth });
    }
    return level;
  }

  async run(): Promise<CrawlResult> {
    const maxDepth = Math.max(0, this.options.depth ?? 1);
    const sitemapUrls = this.options.useSitemap === false || maxDepth === 0 ? Promise.resolve([]) : this.discoverSitemap();
    this.progress();
    let level = await this.allowed([{ url: this.start, depth: 0 }]);
    for (let depth = 0; level.length > 0 && this.admitted < this.limit; depth += 1) {
      const links = await this.runLevel(level);
      if (depth >= maxDepth) break;
      const extra = depth === 0 ? await sitemapUrls : [];
      level = await this.allowed(this.nextLevel(links, depth + 1, extra));
    }
    this.progress();
    if (this.result.truncated) this.result.note = this.truncationNote();
    return this.result;
  }

  /** The result of a stopped crawl: the pages done, counted as they stand. */
  stopped(): CrawlResult {
    const s = this.result.statistics;
    s.successful_pages = Object.keys(this.result.crawl_data).length;
    s.failed_pages = Object.keys(this.result.error_data).length;
    s.total_pages = s.successful_pages + s.failed_pages;
    if (this.result.truncated) this.result.note = this.truncationNote();
    return { ...this.result, cancelled: true };
  }

  private truncationNote(): string {
    const { pageMaxBytes, jobMaxBytes } = this.budget;
    return this.budget.exhausted
      ? `Page bodies were cut: a crawl's result keeps at most ${jobMaxBytes} bytes of page content (pages marked truncated)`
      : `Page bodies were cut: a page keeps at most ${pageMaxBytes} bytes of content (pages marked truncated)`;
  }

  private async discoverSitemap(): Promise<string[]> {
    try {
      const rules = await this.rules(this.start);
      return await discoverFromSitemaps(sitemapLocations(this.start, rules?.sitemaps), {
        fetch: this.resources.fetch,
        signal: this.signal,
        maxUrls: Math.max(this.limit * 20, 1000),
      });
    } catch (error) {
      if (this.signal?.aborted) throw error;
      this.deps.logger?.debug({ err: errorMessage(error) }, 'sitemap discovery failed');
      return [];
    }
  }
}

/**
 * Crawls a site. Per-page failures land in `error_data`; the crawl itself rejects only on a bad
 * start URL or when `signal` aborts. When `stopSignal` fires it resolves with the pages so far,
 * marked `cancelled`.
 */
export async function crawl(options: CrawlOptions, deps: WebDeps): Promise<CrawlResult> {
  const checked = assertPublicUrl(options.url, urlCheckOf(deps)).href;
  const start = normalizeUrl(checked) ?? checked;
  const resources = openResources(deps);
  const run = new Crawl(options, deps, resources, start);
  try {
    if (options.stopSignal?.aborted) return run.stopped();
    return await run.run();
  } catch (error) {
    if (options.stopSignal?.aborted && !options.signal?.aborted) return run.stopped();
    throw error;
  } finally {
    await resources.close();
  }
}
