/** What the web layer is given by its caller: no singletons, everything passed in. */
import type { Logger } from '@sitelens/telemetry';
import type { UrlCheckOptions } from '@sitelens/egress';
import type { Clock, PageContext } from '@sitelens/contracts';
import { createSafeFetcher, type SafeFetch, type SafeFetcherOptions } from './safe-fetch';
import { RobotsCache } from './robots';
import { createContentExtractor, type ContentRequest, type PageContent } from './content/page-content';
import type { DocumentType } from './content/documents';

export interface RenderResult {
  html: string;
  status: number;
  finalUrl: string;
  /** The document response's media type, when there was one (a PDF shows in Chromium's viewer). */
  contentType?: string;
}

/** A browser that renders a page (implemented by the browser package). */
export interface Renderer {
  /** `context`: what the page is sent and waited for (headers, cookies, user agent, consent, selectors). */
  render(url: string, options: { timeoutMs: number; signal?: AbortSignal; context?: PageContext }): Promise<RenderResult>;
}

/**
 * HTML to content; the inline extractor by default, or a worker pool (which also honours the
 * signal and a deadline by terminating the thread doing the work).
 */
export interface ContentProcessor {
  extract(html: string, pageUrl: string, request: ContentRequest, options?: { signal?: AbortSignal }): PageContent | Promise<PageContent>;
  /** A PDF or DOCX as a page. */
  extractDocument(
    bytes: Uint8Array,
    type: DocumentType,
    pageUrl: string,
    request: ContentRequest,
    options?: { signal?: AbortSignal },
  ): Promise<PageContent>;
}

export interface WebDeps {
  allowPrivate: boolean;
  logger?: Logger;
  renderer?: Renderer;
  /** Fetches pages; a fetcher of its own (closed after use) is made when absent. */
  fetchImpl?: SafeFetch;
  /** Shared robots.txt cache; one per call when absent. */
  robots?: RobotsCache;
  processor?: ContentProcessor;
  /** Options for the fetcher made when `fetchImpl` is absent. */
  fetcher?: Omit<SafeFetcherOptions, 'allowPrivate'>;
  /** The rest of the URL policy (EGRESS_ALLOW, the refusal log) when `fetchImpl` is given. */
  egress?: Omit<UrlCheckOptions, 'allowPrivate'>;
  /** Spaces a crawl's requests under a robots.txt crawl-delay; the wall clock when absent. */
  clock?: Clock;
  /** Largest PDF or DOCX read (DOCUMENT_MAX_BYTES); default 20 MB. */
  documentMaxBytes?: number;
}

/** The URL check every entry point applies (the same one the fetcher applies per hop). */
export function urlCheckOf(deps: WebDeps): UrlCheckOptions {
  return { ...deps.fetcher, ...deps.egress, allowPrivate: deps.allowPrivate };
}

/** The pieces one scrape or crawl works with, and how to release what was made for it. */
export interface WebResources {
  fetch: SafeFetch;
  robots: RobotsCache;
  processor: ContentProcessor;
  close(): Promise<void>;
}

export function openResources(deps: WebDeps): WebResources {
  const own = deps.fetchImpl ? undefined : createSafeFetcher({ ...deps.fetcher, allowPrivate: deps.allowPrivate });
  const fetch = deps.fetchImpl ?? own!.fetch;
  return {
    fetch,
    robots: deps.robots ?? new RobotsCache({ fetch }),
    processor: deps.processor ?? createContentExtractor(),
    close: async () => {
      await own?.close();
    },
  };
}
