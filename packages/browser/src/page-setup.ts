import type { Page } from 'puppeteer-core';
import { BadRequest, TimeoutError, type DevicePreset } from '@sitelens/contracts';
import { isPuppeteerTimeout } from './navigate';
import { emulateMedia } from './page-controls';

export interface MediaPreferences {
  darkMode: boolean;
  reducedMotion?: boolean;
  highContrast?: boolean;
  /** Print media (`print_mode`). */
  print?: boolean;
}

/** The request's overrides of a preset's emulation. */
export interface EmulationOverrides {
  isMobile?: boolean;
  hasTouch?: boolean;
  /** Landscape: a taller-than-wide viewport is turned on its side. */
  isLandscape?: boolean;
}

/** The viewport a device preset gives once the request's overrides apply. */
export function viewportOf(device: DevicePreset, overrides: EmulationOverrides = {}) {
  const turn = overrides.isLandscape === true && device.height > device.width;
  return {
    width: turn ? device.height : device.width,
    height: turn ? device.width : device.height,
    deviceScaleFactor: device.deviceScaleFactor,
    isMobile: overrides.isMobile ?? device.isMobile,
    hasTouch: overrides.hasTouch ?? device.hasTouch,
    isLandscape: overrides.isLandscape ?? device.width > device.height,
  };
}

export type EmulatedViewport = ReturnType<typeof viewportOf>;

/** Viewport, pixel ratio, touch and user agent (from `viewportOf`), on a fresh page; the media the page sees. */
export async function emulateDevice(
  page: Page,
  viewport: EmulatedViewport,
  options: { userAgent: string } & MediaPreferences,
): Promise<void> {
  const media = {
    print: options.print ?? false,
    darkMode: options.darkMode,
    reducedMotion: options.reducedMotion ?? false,
    highContrast: options.highContrast ?? false,
  };
  // A fresh page already sees screen media, a light scheme and no motion or contrast preference
  // (headless Chromium has no desktop settings to inherit): then there is nothing to send, one
  // DevTools round trip fewer per capture.
  const defaults = !media.print && !media.darkMode && !media.reducedMotion && !media.highContrast;
  await Promise.all([
    page.setViewport(viewport),
    page.setUserAgent({ userAgent: options.userAgent }),
    defaults ? undefined : emulateMedia(page, media),
  ]);
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

/**
 * Waits until every selector matches an element, all within `timeoutMs`; the first one missing
 * at the deadline fails the job with a TIMEOUT naming it and the request's field.
 */
export async function waitForSelectors(
  page: Page,
  field: string,
  selectors: readonly string[],
  timeoutMs: number,
  requestTimeoutSeconds: number,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (const selector of selectors) {
    try {
      await page.waitForSelector(selector, { timeout: Math.max(1, deadline - performance.now()) });
    } catch (error) {
      if (isPuppeteerTimeout(error)) {
        throw new TimeoutError(`${field}: no element matched "${selector}" within the ${requestTimeoutSeconds} s timeout`);
      }
      throw error;
    }
  }
}
