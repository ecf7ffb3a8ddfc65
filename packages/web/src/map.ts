/**
 * A map of a site's URLs, fast: what its sitemaps list (robots.txt's, sitemap indexes, gzipped
 * files) and what a walk of its pages finds by links, without rendering and without reading
 * content (only links and titles), normalised, deduplicated, inside the site and the patterns.
 * The walk is bounded by pages and time; when time is up, what was found is the answer.
 */
import { errorMessage } from '@sitelens/contracts';
import { assertPublicUrl } from '@sitelens/egress';
import { CrawlScope } from './crawl-scope';
import { HostGate } from './host-gate';
import { discoverFromSitemaps, sitemapLocations } from './sitemap';
import { normalizeUrl } from './url-normalize';
import { openResources, urlCheckOf, type WebDeps, type WebResources } from './deps';
import type { RobotsRules } from './robots';

export type SitemapMode = 'include' | 'only' | 'skip';

export interface MapOptions {
  url: string;
  /** Most URLs answered. */
  limit: number;
  /** Words ranking the URLs whose path or title holds them first. */
  search?: string;
  includeSubdomains?: boolean;
  /** include (default): sitemaps and the walk; only: sitemaps alone; skip: the walk alone. */
  sitemap?: SitemapMode;
  includePatterns?: string[];
  excludePatterns?: string[];
  /** Pages the walk fetches at most (default: `limit`). */
  maxPages?: number;
  /** Time the walk may take before answering with what it found (default 20 s). */
  walkBudgetMs?: number;
  /** Pages fetched at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface MapResult {
  url: string;
  links: string[];
  /** URLs found, before `limit` cut them (without `search`, the walk stops once it has `limit`). */
  total: number;
}

interface Found {
  order: number;
  title?: string;
}

/** Lower-cased words of at least two characters. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
}

/** How well a URL (its decoded path) and its title answer the search words: path hits count double. */
function scoreOf(url: string, title: string | undefined, words: readonly string[]): number {
  let path = url;
  try {
    const parsed = new URL(url);
    path = decodeURIComponent(parsed.pathname + parsed.search);
  } catch {
    // keep the raw URL
  }
  const pathText = path.toLowerCase();
  const titleText = (title ?? '').toLowerCase();
  return words.reduce((score, word) => score + (pathText.includes(word) ? 2 : 0) + (titleText.includes(word) ? 1 : 0), 0);
}

class SiteMap {
  private readonly found = new Map<string, Found>();
  private readonly scope: CrawlScope;
  private readonly gate: HostGate;
  private readonly deadline: number;
  /** URLs kept at most (memory): enough to rank for `search` and count `total` well past `limit`. */
  private readonly maxFound: number;

  constructor(
    private readonly options: MapOptions,
    private readonly deps: WebDeps,
    private readonly resources: WebResources,
    private readonly start: string,
  ) {
    this.scope = new CrawlScope(start, {
      includeSubdomains: options.includeSubdomains,
      patterns: options.includePatterns,
      excludePatterns: options.excludePatterns,
    });
    this.gate = new HostGate(Math.max(1, options.concurrency ?? 8), deps.clock);
    this.deadline = Date.now() + (options.walkBudgetMs ?? 20_000);
    this.maxFound = Math.min(50_000, Math.max(options.limit * 5, 10_000));
  }

  private rules(url: string): Promise<RobotsRules | undefined> {
    return this.resources.robots.rulesFor(url, this.options.signal).catch(() => undefined);
  }

  /** Adds a URL when it is new, inside the site and the patterns, and robots.txt allows it. */
  private async add(raw: string, title?: string): Promise<boolean> {
    const url = normalizeUrl(raw);
    if (!url) return false;
    const known = this.found.get(url);
    if (known) {
      if (title && !known.title) known.title = title;
      return false;
    }
    if (this.found.size >= this.maxFound) return false;
    if (!this.scope.follows(url) && url !== this.start) return false;
    const rules = await this.rules(url);
    if (rules && !rules.isAllowed(url)) return false;
    this.found.set(url, { order: this.found.size, ...(title ? { title } : {}) });
    return true;
  }

  private async sitemapUrls(): Promise<string[]> {
    try {
      const rules = await this.rules(this.start);
      return await discoverFromSitemaps(sitemapLocations(this.start, rules?.sitemaps), {
        fetch: this.resources.fetch,
        signal: this.options.signal,
        maxUrls: this.maxFound,
        maxSitemaps: 50,
        // Sitemaps share the walk's time: past it, what they listed so far is kept.
        deadline: this.deadline,
      });
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      this.deps.logger?.debug({ err: errorMessage(error) }, 'map: sitemap discovery failed');
      return [];
    }
  }

  /** One page: its links and title (no content is made), or nothing when it is not HTML. */
  private async read(url: string): Promise<{ links: string[]; title?: string }> {
    const release = await this.gate.acquire(new URL(url).host, 0, this.options.signal);
    try {
      const fetched = await this.resources.fetch(url, { signal: this.options.signal, timeoutMs: 10_000 });
      if (fetched.status >= 400 || !/^(text\/html|application\/xhtml\+xml|)$/.test(fetched.contentType) || !fetched.body)
        return { links: [] };
      const content = await this.resources.processor.extract(fetched.body, fetched.url, {}, { signal: this.options.signal });
      if (fetched.url !== url) await this.add(fetched.url, content.title);
      return { links: content.links, ...(content.title ? { title: content.title } : {}) };
    } catch (error) {
      if (this.options.signal?.aborted) throw error;
      return { links: [] };
    } finally {
      release();
    }
  }

  /**
   * Breadth-first: the start page, then what it links to, then the sitemap's pages, then what
   * they link to; a pool of readers, within pages and time.
   */
  private async walk(seeds: string[], startAllowed: boolean): Promise<void> {
    const maxPages = Math.max(1, this.options.maxPages ?? this.options.limit);
    const queue: string[] = [];
    const queued = new Set<string>([this.start]);
    let read = 0;
    // Without `search` the answer is the first `limit` URLs in the order found: once there are that
    // many, reading on could only raise `total`.
    const enough = () => !this.options.search?.trim() && this.found.size >= this.options.limit;
    const visit = async (url: string) => {
      read += 1;
      const page = await this.read(url);
      if (page.title) await this.add(url, page.title);
      for (const link of page.links) {
        const normal = normalizeUrl(link);
        if (!normal || queued.has(normal)) continue;
        if (await this.add(normal)) {
          queued.add(normal);
          queue.push(normal);
        }
      }
    };
    // robots.txt decides what the walk reads, the start page included.
    if (startAllowed && !enough()) await visit(this.start);
    for (const seed of seeds) {
      if (queued.has(seed)) continue;
      queued.add(seed);
      queue.push(seed);
    }
    // Readers wait while the queue is empty but others are still reading (their pages may add
    // links); the walk ends when the queue is empty and nobody is reading.
    let reading = 0;
    let wake: (() => void) | undefined;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const nudge = () => {
      wake?.();
      woken = new Promise<void>((resolve) => (wake = resolve));
    };
    const reader = async () => {
      while (read < maxPages && Date.now() < this.deadline && !enough()) {
        this.options.signal?.throwIfAborted();
        if (queue.length === 0) {
          if (reading === 0) break;
          await woken;
          continue;
        }
        reading += 1;
        try {
          await visit(queue.shift()!);
        } finally {
          reading -= 1;
          nudge();
        }
      }
      nudge();
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency ?? 8) }, reader));
  }

  async run(): Promise<MapResult> {
    const mode = this.options.sitemap ?? 'include';
    await this.add(this.start);
    const startAllowed = this.found.has(this.start);
    const listed = mode === 'skip' ? [] : await this.sitemapUrls();
    const seeds: string[] = [];
    for (const url of listed) if (await this.add(url)) seeds.push(normalizeUrl(url)!);
    if (mode !== 'only') await this.walk(seeds, startAllowed);
    let entries = [...this.found.entries()];
    if (mode === 'only') entries = entries.filter(([url]) => url !== this.start || listed.some((item) => normalizeUrl(item) === url));
    const words = wordsOf(this.options.search ?? '');
    if (words.length > 0) {
      const scores = new Map(entries.map(([url, found]) => [url, scoreOf(url, found.title, words)]));
      entries.sort(([a, fa], [b, fb]) => scores.get(b)! - scores.get(a)! || fa.order - fb.order);
    }
    return { url: this.options.url, links: entries.slice(0, this.options.limit).map(([url]) => url), total: entries.length };
  }
}

/** Maps a site. Rejects only on a bad start URL or when `signal` aborts. */
export async function mapSite(options: MapOptions, deps: WebDeps): Promise<MapResult> {
  const checked = assertPublicUrl(options.url, urlCheckOf(deps)).href;
  const start = normalizeUrl(checked) ?? checked;
  const resources = openResources(deps);
  try {
    return await new SiteMap(options, deps, resources, start).run();
  } finally {
    await resources.close();
  }
}
