import type { HTTPRequest, Page, ResourceType } from 'puppeteer-core';
import { UrlBlocked, errorMessage, isAppError } from '@sitelens/contracts';
import { ADBLOCK_INTERCEPT_PRIORITY } from './adblock';

/**
 * Decides whether the page may fetch a URL: resolves to allow, throws to refuse. The web package
 * supplies the hosted-mode rule (no private addresses); this package only calls it.
 */
export type UrlGuard = (url: string) => Promise<void>;

/** Guard refusals outrank the ad blocker's decisions (cooperative interception picks the highest). */
const GUARD_PRIORITY = ADBLOCK_INTERCEPT_PRIORITY + 10;
const PASS_THROUGH_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const GUARDED_SCHEMES = new Set(['http:', 'https:']);

export interface RequestFilterOptions {
  urlGuard?: UrlGuard;
  /** Resource types never fetched (the renderer skips images, media and fonts). */
  skipTypes?: readonly ResourceType[];
}

export interface RequestFilter {
  /** The guard's refusal of the page's own navigation (or a redirect of it), if there was one. */
  navigationRefusal(): Error | undefined;
}

/**
 * Checks every request the page makes — the navigation, each redirect hop and every subresource —
 * through the guard, in Puppeteer's cooperative interception mode so the ad blocker can intercept
 * the same requests. Service workers are bypassed while a guard is set: their fetches are not
 * interceptable from the page and would slip past it. Call before navigating.
 */
export async function installRequestFilter(page: Page, options: RequestFilterOptions): Promise<RequestFilter> {
  const { urlGuard, skipTypes = [] } = options;
  let refusal: Error | undefined;
  const filter: RequestFilter = { navigationRefusal: () => refusal };
  if (!urlGuard && skipTypes.length === 0) return filter;

  if (urlGuard) await page.setBypassServiceWorker(true);
  await page.setRequestInterception(true);

  const isPageNavigation = (request: HTTPRequest) => request.isNavigationRequest() && request.frame() === page.mainFrame();
  const refuse = (request: HTTPRequest, error: unknown) => {
    if (isPageNavigation(request) && !refusal) {
      refusal = isAppError(error) ? error : new UrlBlocked(errorMessage(error));
    }
    void request.abort('blockedbyclient', GUARD_PRIORITY).catch(() => undefined);
  };
  const allow = (request: HTTPRequest) => void request.continue(request.continueRequestOverrides(), 0).catch(() => undefined);

  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (skipTypes.includes(request.resourceType())) {
      void request.abort('blockedbyclient', GUARD_PRIORITY).catch(() => undefined);
      return;
    }
    if (!urlGuard) return allow(request);
    const url = request.url();
    let scheme: string;
    try {
      scheme = new URL(url).protocol;
    } catch {
      return refuse(request, new UrlBlocked(`Refused a malformed URL: ${url.slice(0, 200)}`));
    }
    if (PASS_THROUGH_SCHEMES.has(scheme)) return allow(request);
    if (!GUARDED_SCHEMES.has(scheme)) return refuse(request, new UrlBlocked(`Refused ${scheme} URL: only http and https are allowed`));
    // Page#on('request') queues each handler as an intercept action and resolves the interception
    // only after the promises it returns settle, so the guard may be asynchronous.
    return urlGuard(url).then(
      () => allow(request),
      (error: unknown) => refuse(request, error),
    );
  });
  return filter;
}
