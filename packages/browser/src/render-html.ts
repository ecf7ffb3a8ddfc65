import type { Page, ResourceType } from 'puppeteer-core';
import type { BrowserPool } from './browser-pool';
import { navigate, whenPageCrashes } from './navigate';
import { dismissDialogs } from './page-setup';
import { skipResourceTypes, type UrlGuard } from './request-filter';

export interface RenderOptions {
  /** Bound on loading the page; rendering stops waiting for the network within it. */
  timeoutMs: number;
  signal?: AbortSignal;
  urlGuard?: UrlGuard;
}

export interface RenderedPage {
  /** The DOM serialized after scripts ran. */
  html: string;
  /** HTTP status of the final document response (0 when there was none, e.g. a client-side-only page). */
  status: number;
  /** The URL after redirects and client-side navigation. */
  finalUrl: string;
}

/** Pixels are not needed to read a page: skipping them makes rendering faster and lighter. */
const SKIPPED_TYPES: readonly ResourceType[] = ['image', 'media', 'font'];
/** After `load`, how long to give scripts' own requests (XHR/fetch) to settle. */
const SETTLE_MS = 5_000;
const CLOSE_MARGIN_MS = 5_000;

/**
 * Loads `url` in a fresh context, lets its scripts run until the network settles (bounded), and
 * returns the rendered DOM. Navigation failures carry the same codes as screenshots.
 */
export function renderHtml(pool: BrowserPool, url: string, options: RenderOptions): Promise<RenderedPage> {
  return pool.withContext(
    async ({ context, userAgent }) => {
      const page = await context.newPage();
      return Promise.race([renderOn(page, userAgent), whenPageCrashes(page)]);
    },
    { signal: options.signal, timeoutMs: options.timeoutMs + SETTLE_MS + CLOSE_MARGIN_MS },
  );

  async function renderOn(page: Page, userAgent: string): Promise<RenderedPage> {
    page.setDefaultTimeout(options.timeoutMs);
    dismissDialogs(page);
    await page.setUserAgent(userAgent);
    await skipResourceTypes(page, SKIPPED_TYPES);
    const started = performance.now();
    const { response } = await navigate(page, url, { waitUntil: 'load', timeoutMs: options.timeoutMs, guard: options.urlGuard });
    const left = options.timeoutMs - (performance.now() - started);
    if (left > 0) {
      await page.waitForNetworkIdle({ idleTime: 500, concurrency: 0, timeout: Math.min(SETTLE_MS, left) }).catch(() => undefined);
    }
    return { html: await page.content(), status: response?.status() ?? 0, finalUrl: page.url() };
  }
}
