/**
 * @sitelens/web: the web layer scrape, crawl, parse and watch stand on. Safe fetching (address
 * checks at connect time, bounded time and size), page content (main content, markdown, text,
 * links, metadata), robots.txt, sitemaps and the crawler. The URL policy is @sitelens/egress's.
 */
export {
  createSafeFetcher,
  DEFAULT_USER_AGENT,
  DEFAULT_MAX_BYTES,
  type SafeFetch,
  type SafeFetcher,
  type SafeFetcherOptions,
  type FetchPageOptions,
  type FetchedPage,
} from './safe-fetch';
export { normalizeUrl } from './url-normalize';
export { capBytes, ByteBudget, type CappedText } from './byte-cap';
export { RobotsCache, parseRobots, ROBOTS_USER_AGENT, type RobotsRules, type RobotsCacheOptions } from './robots';
export { parseSitemap, discoverFromSitemaps, type ParsedSitemap, type SitemapDiscoveryOptions } from './sitemap';
export { createContentExtractor, type ContentExtractor, type ContentRequest, type PageContent } from './content/page-content';
export type { PageMetadata } from './content/metadata';
export { looksLikeJsShell } from './content/js-shell';
export { parseDocument } from './content/dom';
export { extractMetadata } from './content/metadata';
export { extractLinks } from './content/links';
export {
  createContentWorkerPool,
  contentTimeout,
  DEFAULT_CONTENT_TIMEOUT_MS,
  type ContentWorkerPool,
  type ContentWorkerPoolOptions,
  type ExtractOptions,
} from './content/worker-pool';
export { flattenDeepNesting, DOM_DEPTH_CAP } from './content/flatten';
export { extractMainContent, type MainContent } from './content/main-content';
export { createMarkdownConverter, type MarkdownConverter } from './content/markdown';
export { htmlToText } from './content/text';
export {
  openResources,
  urlCheckOf,
  type WebDeps,
  type WebResources,
  type Renderer,
  type RenderResult,
  type ContentProcessor,
} from './deps';
export { scrapePage, type PageRequest, type ScrapedPage, type ContentFormat, type ContentScope } from './scrape-page';
export { scrapeUrl, toScrapeResult, type ScrapeOptions, type ScrapeResult, type ScrapeMetadata } from './scrape';
export {
  crawl,
  type CrawlOptions,
  type CrawlResult,
  type CrawlPage,
  type CrawlPageEvent,
  type CrawlStatistics,
  type PageCache,
} from './crawler';
export { compilePathGlobs, globToRegexSource } from './path-glob';
export { mapSite, type MapOptions, type MapResult, type SitemapMode } from './map';
