/** Looks at the watched page once: its content (or the selected element's), normalised and hashed. */
import { isAppError, pageContextOf, type WatchRecord } from '@sitelens/contracts';
import type { WatchSnapshot } from '@sitelens/watch';
import { openResources, scrapePage, type WebDeps } from '@sitelens/web';
import { contentHash, normaliseHtml, normaliseText } from './normalise';

export interface Observation {
  snapshot: WatchSnapshot;
  /** The watched region's HTML as served (include_html only). */
  html?: string;
}

/** Bound of the snapshot kept for the next diff; the hash always covers the whole content. */
const MAX_SNAPSHOT_CHARS = 1_000_000;

/**
 * Scrapes the page as GET /v1/scrape does (safety checks, robots.txt, rendering script shells).
 * A page that is gone (404/410) or a selector that matches nothing is observed as absent, which
 * the comparison reports as `removed`; other failures throw.
 */
export async function observePage(
  watch: Pick<
    WatchRecord,
    'url' | 'selector' | 'include_html' | 'headers' | 'cookies' | 'user_agent' | 'http_auth' | 'locale' | 'block_cookies'
  >,
  web: WebDeps,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Observation> {
  const resources = openResources(web);
  try {
    const page = await scrapePage(
      {
        url: watch.url,
        format: 'markdown',
        selector: watch.selector,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        context: pageContextOf(watch),
      },
      web,
      resources,
    );
    const present = watch.selector === undefined || page.content.selectorMatched === true;
    const content = present ? normaliseText(page.content.markdown ?? '') : '';
    let html: string | undefined;
    if (watch.include_html) {
      const region =
        present && page.html ? await resources.processor.extract(page.html, page.url, { html: true, selector: watch.selector }) : undefined;
      html = region?.contentHtml ?? '';
    }
    const hash = contentHash(content, html === undefined ? undefined : normaliseHtml(html));
    return { snapshot: { hash, content: content.slice(0, MAX_SNAPSHOT_CHARS), present }, html };
  } catch (error) {
    if (isAppError(error) && error.code === 'UPSTREAM_NOT_FOUND') {
      const html = watch.include_html ? '' : undefined;
      return { snapshot: { hash: contentHash('', html), content: '', present: false }, html };
    }
    throw error;
  } finally {
    await resources.close();
  }
}
