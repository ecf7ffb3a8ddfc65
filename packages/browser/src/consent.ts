import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';

/**
 * `block_cookies`: cookie-consent walls out of the picture. Where a known consent platform is found
 * (OneTrust, Cookiebot, Didomi, Quantcast, Osano, Complianz, ... : DuckDuckGo's maintained
 * autoconsent rules, bundled with the package) it is answered the way a privacy-minded visitor
 * would (reject / opt out) and closes; banners no rule knows are hidden by a generic cosmetic list.
 */

/** autoconsent's self-contained build: its rules compiled in, it starts itself on every document. */
const AUTOCONSENT_SCRIPT = path.join(path.dirname(require.resolve('@duckduckgo/autoconsent')), 'autoconsent.standalone.js');

let script: Promise<string> | undefined;
function autoconsentScript(): Promise<string> {
  script ??= readFile(AUTOCONSENT_SCRIPT, 'utf8');
  return script;
}

/**
 * Banners of cookie notices no platform rule knows: common ids and classes of hand-made and
 * plugin banners. Hidden with `display: none`, so the page shows as it would once dismissed.
 */
export const GENERIC_CONSENT_SELECTORS = [
  '[id*="cookie-banner" i]',
  '[class*="cookie-banner" i]',
  '[id*="cookie-consent" i]',
  '[class*="cookie-consent" i]',
  '[id*="cookieconsent" i]',
  '[class*="cookieconsent" i]',
  '[id*="cookie-notice" i]',
  '[class*="cookie-notice" i]',
  '[id*="cookie-bar" i]',
  '[class*="cookie-bar" i]',
  '[id*="cookie-popup" i]',
  '[class*="cookie-popup" i]',
  '[id*="gdpr-banner" i]',
  '[class*="gdpr-banner" i]',
  '[id*="consent-banner" i]',
  '[class*="consent-banner" i]',
  '[aria-label*="cookie" i][role="dialog"]',
  '[aria-label*="cookie" i][role="region"]',
  '#CybotCookiebotDialog',
  '#onetrust-consent-sdk',
  '.cc-window',
  '.cky-consent-container',
  '#cmplz-cookiebanner-container',
  '#moove_gdpr_cookie_info_bar',
  '.qc-cmp2-container',
  '#didomi-host',
  '.fc-consent-root',
] as const;

/** Longest a job waits for a consent platform to be answered. */
export const CONSENT_BUDGET_MS = 4_000;

/** autoconsent's states after which nothing more happens on the page. */
const SETTLED = new Set(['nothingDetected', 'optOutSucceeded', 'optOutFailed', 'optInSucceeded', 'optInFailed', 'done']);

/** Before the page loads: autoconsent runs in every document of the page (the platforms' iframes too). */
export async function enableConsentHandling(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(await autoconsentScript());
}

/**
 * After load: waits for autoconsent to finish with the platform it found (at most `budgetMs`), or
 * `quietMs` when it found none, then hides what the generic list matches. Returns what autoconsent
 * reported, for the log.
 */
export async function settleConsent(page: Page, options: { budgetMs: number; quietMs?: number }): Promise<string> {
  const started = Date.now();
  const quietMs = options.quietMs ?? 1_000;
  let lifecycle = 'unknown';
  for (;;) {
    lifecycle = await page
      .evaluate(() => {
        const standalone = (window as unknown as { autoconsentStandalone?: { instance?: { state?: { lifecycle?: string } } } })
          .autoconsentStandalone;
        return standalone?.instance?.state?.lifecycle ?? 'absent';
      })
      .catch(() => 'absent');
    const elapsed = Date.now() - started;
    if (SETTLED.has(lifecycle) || elapsed >= options.budgetMs) break;
    // Nothing found in the first passes: a platform present at load is detected on the first one.
    if ((lifecycle === 'started' || lifecycle === 'initialized' || lifecycle === 'absent') && elapsed >= quietMs) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await page
    .evaluate(
      (selectors: string[]) => {
        const style = document.createElement('style');
        style.dataset.sitelens = 'block-cookies';
        style.textContent = `${selectors.join(',\n')} { display: none !important; }`;
        (document.head ?? document.documentElement).appendChild(style);
      },
      [...GENERIC_CONSENT_SELECTORS],
    )
    .catch(() => undefined);
  return lifecycle;
}
