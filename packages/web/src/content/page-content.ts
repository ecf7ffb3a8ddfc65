/**
 * Everything scrape, crawl and parse need from one HTML page, in one pass over one parsed
 * document: metadata and links (from the whole page), then the main content as HTML, markdown
 * and/or text. Pure and CPU-bound, so it can run on a worker thread.
 */
import { baseUrlOf, parseDocument } from './dom';
import { extractMetadata, type PageMetadata } from './metadata';
import { extractLinks } from './links';
import { absolutize, extractMainContent } from './main-content';
import { removeNonContent } from './clean';
import { createMarkdownConverter, type MarkdownConverter } from './markdown';
import { htmlToText } from './text';
import { looksLikeJsShell } from './js-shell';
import { selectElement } from './selected-content';
import { AppError, errorMessage } from '@sitelens/contracts';
import { documentToHtml, type DocumentHtml, type DocumentType } from './documents';

export interface ContentRequest {
  markdown?: boolean;
  text?: boolean;
  /** The cleaned main-content HTML. */
  html?: boolean;
  /** Also decide whether the page is an empty script shell. */
  detectJsShell?: boolean;
  /** Take the content from the first element matching this CSS selector instead of the main content. */
  selector?: string;
  /** false: the whole page's content (navigation, header and footer too), not its main content. Default true. */
  mainContent?: boolean;
  /** The content is every element matching these (outermost, in page order) instead of the main content. */
  includeSelectors?: readonly string[];
  /** Elements matching these are removed before the content is taken (links and metadata come from the whole page). */
  excludeSelectors?: readonly string[];
}

/** Every element matching any of `selectors`; a selector the DOM cannot read matches nothing. */
function matching(root: ParentNode, selectors: readonly string[]): Element[] {
  const found: Element[] = [];
  for (const selector of selectors) {
    try {
      found.push(...Array.from(root.querySelectorAll(selector)));
    } catch {
      // css-what accepted it at the gate; the DOM library may still not know a pseudo-class.
    }
  }
  return found;
}

function removeMatching(document: Document, selectors: readonly string[] | undefined): void {
  if (!selectors?.length) return;
  for (const element of matching(document, selectors)) element.remove();
}

/** A detached container holding copies of the outermost elements matching `selectors`, in page order. */
function includedContent(document: Document, pageUrl: string, selectors: readonly string[]): Element {
  const matched = new Set(matching(document, selectors));
  const container = document.createElement('div');
  for (const element of Array.from(document.querySelectorAll('*'))) {
    if (!matched.has(element)) continue;
    let outer = true;
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (matched.has(parent)) {
        outer = false;
        break;
      }
    }
    if (outer) container.appendChild(element.cloneNode(true));
  }
  absolutize(container, baseUrlOf(document, pageUrl));
  return container;
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
  /** A PDF or DOCX as a page: all of it is content (no main-content guess), metadata from the file. */
  extractDocument(bytes: Uint8Array, type: DocumentType, pageUrl: string, request: ContentRequest): Promise<PageContent>;
}

/** Holds one markdown converter; create one per worker (or per crawl) and reuse it. */
export function createContentExtractor(): ContentExtractor {
  let converter: MarkdownConverter | undefined;
  return {
    async extractDocument(bytes, type, pageUrl, request) {
      let document: DocumentHtml;
      try {
        document = await documentToHtml(bytes, type);
      } catch (error) {
        throw new AppError('UNPROCESSABLE', `Could not read the ${type.toUpperCase()} at ${pageUrl}: ${errorMessage(error)}`);
      }
      const content = this.extract(document.html, pageUrl, { ...request, mainContent: false, detectJsShell: false });
      const firstHeading = /^#+ (.+)$/m.exec(content.markdown ?? '')?.[1];
      const title = document.title ?? content.title ?? firstHeading ?? '';
      return {
        ...content,
        title,
        metadata: {
          ...content.metadata,
          title,
          ...(document.author ? { author: document.author } : {}),
          ...(document.pageCount === undefined ? {} : { page_count: document.pageCount }),
        },
      };
    },
    extract(html, pageUrl, request) {
      const document = parseDocument(html);
      const metadata = extractMetadata(document, pageUrl);
      const links = extractLinks(document, pageUrl);
      const jsShell = request.detectJsShell ? looksLikeJsShell(document) : undefined;
      const result: PageContent = { title: metadata.title, metadata, links };
      if (jsShell !== undefined) result.jsShell = jsShell;
      if (!request.markdown && !request.text && !request.html) return result;

      let root: Element;
      const exclude = request.excludeSelectors?.length ? (page: Document) => removeMatching(page, request.excludeSelectors) : undefined;
      exclude?.(document);
      if (request.selector) {
        const selected = selectElement(document, pageUrl, request.selector);
        result.selectorMatched = selected !== null;
        if (!selected) return result;
        root = selected;
      } else if (request.includeSelectors?.length) {
        removeNonContent(document);
        root = includedContent(document, pageUrl, request.includeSelectors);
      } else if (request.mainContent === false) {
        removeNonContent(document);
        absolutize(document, baseUrlOf(document, pageUrl));
        root = document.body ?? document.documentElement;
      } else {
        const main = extractMainContent(document, html, pageUrl, metadata.title, exclude);
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
