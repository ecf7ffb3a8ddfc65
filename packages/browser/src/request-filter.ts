import type { Page, ResourceType } from 'puppeteer-core';
import { ADBLOCK_INTERCEPT_PRIORITY } from './adblock';

/**
 * Decides whether a page may be loaded: resolves to allow, throws to refuse. The egress package
 * supplies the hosted-mode rule; it is asked for the page's own URL before navigating, so a refused
 * page fails with a clear URL_BLOCKED. Everything the page then requests is checked by the egress
 * proxy, which request interception could not replace (workers, WebSockets and new windows escape
 * it, and it stalls dedicated workers' requests).
 */
export type UrlGuard = (url: string) => Promise<void>;

/** Skipping outranks the ad blocker's decisions (cooperative interception picks the highest). */
const SKIP_PRIORITY = ADBLOCK_INTERCEPT_PRIORITY + 10;

/**
 * Never fetches resources of the given types (the renderer skips images, media and fonts), in
 * Puppeteer's cooperative interception mode so the ad blocker can intercept the same requests.
 * Call before navigating.
 */
export async function skipResourceTypes(page: Page, skipTypes: readonly ResourceType[]): Promise<void> {
  if (skipTypes.length === 0) return;
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (skipTypes.includes(request.resourceType())) {
      void request.abort('blockedbyclient', SKIP_PRIORITY).catch(() => undefined);
      return;
    }
    void request.continue(request.continueRequestOverrides(), 0).catch(() => undefined);
  });
}
