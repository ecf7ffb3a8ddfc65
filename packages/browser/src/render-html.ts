import type { Page, ResourceType } from 'puppeteer-core';
import type { PageContext } from '@sitelens/contracts';
import type { BrowserPool } from './browser-pool';
import { CONSENT_BUDGET_MS, enableConsentHandling, settleConsent } from './consent';
import { navigate, whenPageCrashes } from './navigate';
import { applyPageControls } from './page-controls';
import { assertValidSelectors, dismissDialogs, waitForSelectors } from './page-setup';
import { skipResourceTypes, type UrlGuard } from './request-filter';

export interface RenderOptions {
  /** Bound on loading the page; rendering stops waiting for the network within it. */
  timeoutMs: number;
  signal?: AbortSignal;
  urlGuard?: UrlGuard;
  /** What the page is sent (headers, cookies, user agent, basic auth, language) and waited for. */
  context?: PageContext;
}

export interface RenderedPage {
  /** The DOM serialized after scripts ran. */
  html: string;
  /** HTTP status of the final document response (0 when there was none, e.g. a client-side-only page). */
  status: number;
  /** The URL after redirects and client-side navigation. */
  finalUrl: string;
  /** The document response's media type, lower-cased, without parameters. */
  contentType?: string;
}

/** Pixels are not needed to read a page: skipping them makes rendering faster and lighter. */
const SKIPPED_TYPES: readonly ResourceType[] = ['image', 'media', 'font'];
/** After `load`, how long to give scripts' own requests (XHR/fetch) to settle. */
const SETTLE_MS = 5_000;
const CLOSE_MARGIN_MS = 5_000;
/** Time kept back from waiting for selectors to report a missing one before the job's deadline. */
const SELECTOR_MARGIN_MS = 1_000;

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

  async function renderOn(page: Page, defaultUserAgent: string): Promise<RenderedPage> {
    const pageContext = options.context;
    const waitFor = pageContext?.waitForSelectors ?? [];
    page.setDefaultTimeout(options.timeoutMs);
    dismissDialogs(page);
    await assertValidSelectors(page, 'wait_for_selectors', waitFor);
    const userAgent = pageContext?.userAgent ?? defaultUserAgent;
    await page.setUserAgent({ userAgent });
    await skipResourceTypes(page, SKIPPED_TYPES);
    if (pageContext) {
      await applyPageControls(page, {
        targetUrl: pageContext.targetUrl,
        userAgent,
        headers: pageContext.headers,
        cookies: pageContext.cookies,
        httpAuth: pageContext.httpAuth,
        locale: pageContext.locale,
      });
      if (pageContext.blockCookies) await enableConsentHandling(page);
    }
    const started = performance.now();
    const left = () => options.timeoutMs - (performance.now() - started);
    const { response } = await navigate(page, url, { waitUntil: 'load', timeoutMs: options.timeoutMs, guard: options.urlGuard });
    if (waitFor.length > 0) {
      // Ends before the job's own deadline, so the answer names the selector that never came.
      const waitMs = Math.max(500, left() - SELECTOR_MARGIN_MS);
      await waitForSelectors(page, 'wait_for_selectors', waitFor, waitMs, Math.ceil(options.timeoutMs / 1000));
    }
    if (pageContext?.blockCookies) await settleConsent(page, { budgetMs: Math.max(0, Math.min(CONSENT_BUDGET_MS, left())) });
    if (left() > 0) {
      await page.waitForNetworkIdle({ idleTime: 500, concurrency: 0, timeout: Math.min(SETTLE_MS, left()) }).catch(() => undefined);
    }
    const contentType = (response?.headers()['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    return { html: await page.content(), status: response?.status() ?? 0, finalUrl: page.url(), ...(contentType ? { contentType } : {}) };
  }
}
