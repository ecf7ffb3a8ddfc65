import type { Page } from 'puppeteer-core';
import { BadRequest, type DevicePreset } from '@sitelens/contracts';

export interface MediaPreferences {
  darkMode: boolean;
  reducedMotion?: boolean;
  highContrast?: boolean;
}

/** Viewport, pixel ratio, touch and user agent of a device preset; the media preferences the page sees. */
export async function emulateDevice(page: Page, device: DevicePreset, options: { userAgent: string } & MediaPreferences): Promise<void> {
  await Promise.all([
    page.setViewport({
      width: device.width,
      height: device.height,
      deviceScaleFactor: device.deviceScaleFactor,
      isMobile: device.isMobile,
      hasTouch: device.hasTouch,
    }),
    page.setUserAgent(device.userAgent ?? options.userAgent),
    page.emulateMediaFeatures([
      { name: 'prefers-color-scheme', value: options.darkMode ? 'dark' : 'light' },
      { name: 'prefers-reduced-motion', value: options.reducedMotion ? 'reduce' : 'no-preference' },
    ]),
    options.highContrast ? emulateHighContrast(page) : undefined,
  ]);
}

/**
 * `prefers-contrast: more`. Puppeteer's emulateMediaFeatures refuses this feature name, so it goes
 * straight to the DevTools protocol on a session of its own (overrides of both sessions apply).
 */
async function emulateHighContrast(page: Page): Promise<void> {
  const session = await page.createCDPSession();
  await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-contrast', value: 'more' }] });
}

/** Alerts, confirms and prompts would stall the page; nobody is there to answer them. */
export function dismissDialogs(page: Page): void {
  page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
}

/**
 * Fails fast, before loading anything, when a selector from the request is not valid CSS; the
 * browser's own parser is the judge. `field` names the request field in the message.
 */
export async function assertValidSelectors(page: Page, field: string, selectors: readonly string[]): Promise<void> {
  if (selectors.length === 0) return;
  const bad = await page.evaluate(
    (list: string[]) => {
      const probe = document.createDocumentFragment();
      return list.findIndex((selector) => {
        try {
          probe.querySelector(selector);
          return false;
        } catch {
          return true;
        }
      });
    },
    [...selectors],
  );
  if (bad >= 0) {
    const where = selectors.length === 1 && field === 'wait_for_selector' ? field : `${field}[${bad}]`;
    throw new BadRequest(`${where} is not a valid CSS selector: ${selectors[bad]}`);
  }
}

/**
 * Hides matching elements with `visibility: hidden !important` on them and their descendants. The
 * element keeps its box, so the rest of the page does not reflow: the capture shows the page as it
 * was laid out, with a blank where the element was (`display: none` would close the gap but can
 * shift content, break sticky/absolute layouts and change what lazy loading fetched). Rules go in
 * one by one through the CSSOM, so a selector cannot spill into the next rule, and elements added
 * later by scripts are hidden too.
 */
export async function hideSelectors(page: Page, selectors: readonly string[]): Promise<void> {
  if (selectors.length === 0) return;
  const bad = await page.evaluate(
    (list: string[]) => {
      const style = document.createElement('style');
      style.dataset.sitelens = 'hide-selectors';
      (document.head ?? document.documentElement).appendChild(style);
      const sheet = style.sheet;
      if (!sheet) return -1;
      return list.findIndex((selector) => {
        try {
          sheet.insertRule(`:is(${selector}), :is(${selector}) * { visibility: hidden !important; }`, sheet.cssRules.length);
          return false;
        } catch {
          return true;
        }
      });
    },
    [...selectors],
  );
  if (bad >= 0) throw new BadRequest(`hide_selectors[${bad}] is not a valid CSS selector: ${selectors[bad]}`);
}

/**
 * Runs a step that evaluates in the page again, once, when a client-side redirect replaced the
 * document under it ("Execution context was destroyed"), after the new document has loaded.
 */
export async function retryAfterRedirect<T>(page: Page, step: () => Promise<T>, settleMs = 5_000): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (!/Execution context was destroyed|Cannot find context|context with specified id/i.test(message)) throw error;
    await page.waitForFunction(() => document.readyState === 'complete', { timeout: settleMs }).catch(() => undefined);
    return step();
  }
}
