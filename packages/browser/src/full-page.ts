import type { Page } from 'puppeteer-core';

/** Largest image side each encoder accepts (WebP stops at 16383 px; JPEG at 65535). */
const ENCODER_MAX_PIXELS = { png: Number.MAX_SAFE_INTEGER, jpeg: 65_535, webp: 16_383 } as const;

/**
 * The full-page height cap in CSS pixels: the configured cap, lowered when the image (CSS height
 * times the pixel ratio) would exceed what the format's encoder can store.
 */
export function fullPageCap(configuredMax: number, format: keyof typeof ENCODER_MAX_PIXELS, deviceScaleFactor: number): number {
  return Math.min(configuredMax, Math.floor(ENCODER_MAX_PIXELS[format] / deviceScaleFactor));
}

export interface ScrollPassOptions {
  /** Stop scrolling past this many CSS pixels (the capture cap). */
  maxHeight: number;
  /** Time the pass may take in total. */
  budgetMs: number;
  /** Pause after each step, for lazy loaders (IntersectionObserver, scroll handlers) to react. */
  stepPauseMs?: number;
}

/**
 * Scrolls to the bottom one viewport at a time, so lazy images and infinite sections below the fold
 * start loading, then back to the top. Bounded by the cap and the time budget; pages that keep
 * growing as they are scrolled stop at either.
 */
export async function scrollThrough(page: Page, options: ScrollPassOptions): Promise<void> {
  await page.evaluate(
    async ({ maxHeight, budgetMs, stepPauseMs }) => {
      const deadline = Date.now() + budgetMs;
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const step = Math.max(200, window.innerHeight);
      let y = 0;
      while (Date.now() < deadline) {
        const height = Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0);
        if (y + window.innerHeight >= Math.min(height, maxHeight)) break;
        y += step;
        window.scrollTo(0, y);
        await pause(stepPauseMs);
      }
      window.scrollTo(0, 0);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    },
    { maxHeight: options.maxHeight, budgetMs: options.budgetMs, stepPauseMs: options.stepPauseMs ?? 100 },
  );
}

export interface PageGeometry {
  /** The document's full height in CSS pixels. */
  height: number;
  /**
   * The zoom the page is shown at: below 1 when a mobile browser zooms a page without a
   * responsive viewport out to fit its layout width (usually 980 px) on the screen.
   */
  scale: number;
}

export function pageGeometry(page: Page): Promise<PageGeometry> {
  return page.evaluate(() => ({
    height: Math.ceil(Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)),
    scale: window.visualViewport ? Math.min(1, window.visualViewport.scale) : 1,
  }));
}

/**
 * The area of a full-page capture, in CSS pixels of the layout, so that the image is as wide as
 * the device shows the page (zoomed-out mobile pages keep their zoom) and at most `maxHeight`
 * CSS pixels of what the device shows tall.
 */
export function fullPageClip(geometry: PageGeometry, viewportWidth: number, maxHeight: number) {
  const { scale } = geometry;
  const shownHeight = geometry.height * scale;
  const capturedHeight = Math.max(1, Math.min(shownHeight, maxHeight));
  return {
    clip: { x: 0, y: 0, width: viewportWidth / scale, height: capturedHeight / scale, scale },
    truncated: shownHeight > maxHeight + 0.5,
  };
}
