/**
 * One page, from URL to content: the code path scrape, crawl and parse share. Checks the URL and
 * robots.txt, fetches (or renders in a browser when asked, or when the fetched HTML is an empty
 * script shell), and extracts what the requested format needs.
 */
import { AppError, Unavailable, isAppError, type PageContext } from '@sitelens/contracts';
import { assertPublicUrl } from '@sitelens/egress';
import type { ContentRequest, PageContent } from './content/page-content';
import { documentTypeOf } from './content/documents';

/** DOCUMENT_MAX_BYTES when the caller sets none: the largest PDF or DOCX read. */
export const DEFAULT_DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
import { urlCheckOf, type RenderResult, type WebDeps, type WebResources } from './deps';

export type ContentFormat = 'markdown' | 'html' | 'text' | 'links';

export interface PageRequest {
  url: string;
  format: ContentFormat;
  /** true: always render in a browser; 'auto' (default): render when the HTML is a script shell. */
  renderJs?: boolean | 'auto';
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default true. */
  respectRobots?: boolean;
  /** Content from the first element matching this CSS selector instead of the main content (watches). */
  selector?: string;
  /** Headers, cookies, user agent, basic auth, language, consent handling; `waitForSelectors` implies rendering. */
  context?: PageContext;
  /** What part of the page is its content (whole page, included or excluded elements); the main content by default. */
  scope?: ContentScope;
}

export type ContentScope = Pick<ContentRequest, 'mainContent' | 'includeSelectors' | 'excludeSelectors'>;

export interface ScrapedPage {
  requestedUrl: string;
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** The page's HTML as fetched or rendered ('' for non-HTML responses). */
  html: string;
  rendered: boolean;
  content: PageContent;
}

const HTML_TYPES = new Set(['', 'text/html', 'application/xhtml+xml']);
const PLAIN_TYPES = /^(text\/|application\/(json|xml|ld\+json)$)|\+(json|xml)$/;

function contentRequest(format: ContentFormat, selector: string | undefined, scope: ContentScope | undefined): ContentRequest {
  if (format === 'links') return {};
  return { [format]: true, ...scope, ...(selector === undefined ? {} : { selector }) };
}

function checkStatus(status: number, url: string): void {
  if (status === 404 || status === 410) throw new AppError('UPSTREAM_NOT_FOUND', `Page not found (HTTP ${status}): ${url}`);
  if (status >= 400) {
    throw new AppError('UPSTREAM_ERROR', `The site answered HTTP ${status} for ${url}`, {
      retryable: status >= 500 || status === 429,
    });
  }
}

async function assertRobotsAllow(url: string, request: PageRequest, resources: WebResources): Promise<void> {
  if (request.respectRobots === false) return;
  const rules = await resources.robots.rulesFor(url, request.signal);
  if (rules.unavailable) throw rules.unavailable;
  if (!rules.isAllowed(url)) throw new AppError('ROBOTS_DISALLOWED', `robots.txt disallows ${url}`);
}

async function render(url: string, request: PageRequest, deps: WebDeps): Promise<RenderResult> {
  if (!deps.renderer) throw new Unavailable('JavaScript rendering is not available here', { retryable: false });
  try {
    const result = await deps.renderer.render(url, {
      timeoutMs: request.timeoutMs ?? 30_000,
      signal: request.signal,
      ...(request.context ? { context: request.context } : {}),
    });
    assertPublicUrl(result.finalUrl, urlCheckOf(deps));
    return result;
  } catch (error) {
    if (isAppError(error) || request.signal?.aborted) throw error;
    throw new AppError('NAVIGATION_FAILED', `Rendering ${url} failed: ${(error as Error).message ?? error}`, {
      retryable: true,
      cause: error,
    });
  }
}

export async function scrapePage(request: PageRequest, deps: WebDeps, resources: WebResources): Promise<ScrapedPage> {
  const requested = assertPublicUrl(request.url, urlCheckOf(deps)).href;
  await assertRobotsAllow(requested, request, resources);
  const wanted = contentRequest(request.format, request.selector, request.scope);
  // Waiting for selectors means running the page's scripts; a URL named like a document is read, not rendered.
  const looksLikeDocument = documentTypeOf('', requested) !== undefined;
  const renderJs = looksLikeDocument ? 'auto' : request.context?.waitForSelectors?.length ? true : (request.renderJs ?? 'auto');

  if (renderJs === true) {
    const rendered = await render(requested, request, deps);
    checkStatus(rendered.status, rendered.finalUrl);
    if (rendered.contentType && documentTypeOf(rendered.contentType, rendered.finalUrl)) {
      // Chromium showed its document viewer: read the document itself (there is nothing to wait for).
      const context = request.context && { ...request.context, waitForSelectors: undefined };
      return scrapePage({ ...request, url: rendered.finalUrl, renderJs: false, context }, deps, resources);
    }
    const content = await resources.processor.extract(rendered.html, rendered.finalUrl, wanted, { signal: request.signal });
    return { requestedUrl: requested, url: rendered.finalUrl, status: rendered.status, html: rendered.html, rendered: true, content };
  }

  const fetched = await resources.fetch(requested, {
    signal: request.signal,
    timeoutMs: request.timeoutMs,
    beforeRedirect: (next) => assertRobotsAllow(next, request, resources),
    ...(request.context ? { context: request.context } : {}),
    binary: (contentType, url) => documentTypeOf(contentType, url) !== undefined,
    binaryMaxBytes: deps.documentMaxBytes ?? DEFAULT_DOCUMENT_MAX_BYTES,
  });
  checkStatus(fetched.status, fetched.url);
  const page = { requestedUrl: requested, url: fetched.url, status: fetched.status, rendered: false };

  const documentType = fetched.bytes ? documentTypeOf(fetched.contentType, fetched.url) : undefined;
  if (documentType && fetched.bytes) {
    const content = await resources.processor.extractDocument(fetched.bytes, documentType, fetched.url, wanted, { signal: request.signal });
    return { ...page, html: '', content };
  }
  if (!HTML_TYPES.has(fetched.contentType)) {
    if (!PLAIN_TYPES.test(fetched.contentType)) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `${fetched.url} is ${fetched.contentType || 'of no declared type'}, which Sitelens does not read ` +
          '(it reads HTML, PDF, DOCX, plain text, markdown, JSON and XML)',
      );
    }
    const text = fetched.body;
    const content: PageContent = { title: '', metadata: { title: '' }, links: [] };
    if (request.format !== 'links') content[request.format === 'html' ? 'contentHtml' : request.format] = text;
    return { ...page, html: '', content };
  }

  const detect = renderJs === 'auto' && deps.renderer !== undefined;
  const content = await resources.processor.extract(
    fetched.body,
    fetched.url,
    { ...wanted, detectJsShell: detect },
    { signal: request.signal },
  );
  if (!content.jsShell) return { ...page, html: fetched.body, content };
  try {
    const rendered = await render(fetched.url, request, deps);
    checkStatus(rendered.status, rendered.finalUrl);
    const renderedContent = await resources.processor.extract(rendered.html, rendered.finalUrl, wanted, { signal: request.signal });
    return { ...page, url: rendered.finalUrl, status: rendered.status, html: rendered.html, rendered: true, content: renderedContent };
  } catch (error) {
    if (request.signal?.aborted) throw error;
    // Automatic rendering is an improvement, not a requirement: keep what was fetched.
    deps.logger?.warn({ url: fetched.url, err: (error as Error).message }, 'rendering a script-shell page failed');
    return { ...page, html: fetched.body, content };
  }
}
