import { createHash } from 'node:crypto';
import { readBlobText, type BlobStore } from '@sitelens/storage';
import type { PageCache, ScrapedPage } from '@sitelens/web';

/** Where reused pages live in the blob store; swept after a week (the longest max_age). */
export const PAGE_CACHE_PREFIX = 'page-cache/';

interface CachedPage {
  stored_at: number;
  page: ScrapedPage;
}

/**
 * A crawl's `max_age` page cache in the blob store. Entries are per owner (hosted mode: an API key
 * never reuses what another fetched) and per `variant` (the options that change what a page reads:
 * format, content scope, page context, rendering), keyed by a hash so no URL or secret shows in a
 * name. A page is reused when it was stored at most `maxAgeSeconds` ago.
 */
export function blobPageCache(
  store: BlobStore,
  options: { owner: string | undefined; variant: unknown; maxAgeSeconds: number; keepHtml: boolean; now?: () => number },
): PageCache | undefined {
  // max_age 0: never reuse, so nothing is worth writing either.
  if (options.maxAgeSeconds <= 0) return undefined;
  const now = options.now ?? Date.now;
  const keyOf = (url: string) =>
    `${PAGE_CACHE_PREFIX}${createHash('sha256')
      .update(JSON.stringify([options.owner ?? '', options.variant, url]))
      .digest('hex')}.json`;
  return {
    async get(url) {
      const cached = JSON.parse(await readBlobText(store, keyOf(url)).catch(() => 'null')) as CachedPage | null;
      if (!cached || now() - cached.stored_at > options.maxAgeSeconds * 1000) return undefined;
      return cached.page;
    },
    async put(url, page) {
      // The page's HTML only when the crawl keeps it (it can be most of the bytes).
      const entry: CachedPage = { stored_at: now(), page: options.keepHtml ? page : { ...page, html: '' } };
      await store.put(keyOf(url), Buffer.from(JSON.stringify(entry)), 'application/json');
    },
  };
}
