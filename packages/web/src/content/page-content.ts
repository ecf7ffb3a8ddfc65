/**
 * Everything scrape, crawl and parse need from one HTML page, in one pass over one parsed
 * document: metadata and links (from the whole page), then the main content as HTML, markdown
 * and/or text. Pure and CPU-bound, so it can run on a worker thread.
 */
import { parseDocument } from './dom';
import { extractMetadata, type PageMetadata } from './metadata';
import { extractLinks } from './links';
import { extractMainContent } from './main-content';
import { createMarkdownConverter, type MarkdownConverter } from './markdown';
import { htmlToText } from './text';
import { looksLikeJsShell } from './js-shell';
import { selectElement } from './selected-content';

export interface ContentRequest {
  markdown?: boolean;
  text?: boolean;
  /** The cleaned main-content HTML. */
  html?: boolean;
  /** Also decide whether the page is an empty script shell. */
  detectJsShell?: boolean;
  /** Take the content from the first element matching this CSS selector instead of the main content. */
  selector?: string;
}

export interface PageContent {
  title: string;
  metadata: PageMetadata;
  links: string[];
  markdown?: string;
  text?: string;
  contentHtml?: string;
  jsShell?: boolean;
  /** With a `selector`: whether an element matched (no content fields when none did). */
  selectorMatched?: boolean;
}

export interface ContentExtractor {
  extract(html: string, pageUrl: string, request: ContentRequest): PageContent;
}

/** Holds one markdown converter; create one per worker (or per crawl) and reuse it. */
export function createContentExtractor(): ContentExtractor {
  let converter: MarkdownConverter | undefined;
  return {
    extract(html, pageUrl, request) {
      const document = parseDocument(html);
      const metadata = extractMetadata(document, pageUrl);
      const links = extractLinks(document, pageUrl);
      const jsShell = request.detectJsShell ? looksLikeJsShell(document) : undefined;
      const result: PageContent = { title: metadata.title, metadata, links };
      if (jsShell !== undefined) result.jsShell = jsShell;
      if (!request.markdown && !request.text && !request.html) return result;

      let root: Element;
      if (request.selector) {
        const selected = selectElement(document, pageUrl, request.selector);
        result.selectorMatched = selected !== null;
        if (!selected) return result;
        root = selected;
      } else {
        const main = extractMainContent(document, html, pageUrl, metadata.title);
        if (!result.title) result.title = main.title;
        root = main.root;
      }
      if (request.markdown) {
        converter ??= createMarkdownConverter();
        result.markdown = converter(root);
      }
      if (request.text) result.text = htmlToText(root);
      if (request.html) result.contentHtml = (request.selector ? root.outerHTML : root.innerHTML).trim();
      return result;
    },
  };
}
