import { imageSize } from 'image-size';
import type { Page, ScreenshotClip } from 'puppeteer-core';
import {
  FULL_PAGE_SCROLL,
  TimeoutError,
  assertViewportPixels,
  fullPagePixelCap,
  resolveDevice,
  screenshotBudgetMs,
  sleep,
  type ImageFormat,
  type PhaseTimer,
  type ScreenshotCreateRequest,
  type ScreenshotMetadata,
} from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import type { BrowserJob, BrowserPool } from './browser-pool';
import { fullPageCap, fullPageClip, pageGeometry, scrollThrough } from './full-page';
import { isPuppeteerTimeout, navigate, whenPageCrashes } from './navigate';
import { assertValidSelectors, dismissDialogs, emulateDevice, hideSelectors, retryAfterRedirect } from './page-setup';
import type { UrlGuard } from './request-filter';

export const DEFAULT_QUALITY = 85;
export const CONTENT_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface CaptureOptions {
  signal?: AbortSignal;
  /** Full-page height cap in CSS pixels (config `browser.fullPageMaxHeight`). */
  fullPageMaxHeight: number;
  /** Most pixels in one image (config `browser.maxPixels`): viewports above it are refused, full pages cut. */
  maxPixels: number;
  logger: Logger;
  /** Checks the page's URL before it loads (what the page requests, the egress proxy checks). */
  urlGuard?: UrlGuard;
  /** Marks each phase of the capture (see the `sitelens_screenshot_phase_seconds` metric). */
  phases?: PhaseTimer;
}

export interface Screenshot {
  image: Buffer;
  contentType: string;
  metadata: ScreenshotMetadata;
}

/** Loads the page as the request describes it and captures it. */
export function captureScreenshot(pool: BrowserPool, request: ScreenshotCreateRequest, options: CaptureOptions): Promise<Screenshot> {
  return pool.withContext((job) => capture(job, request, options), {
    signal: options.signal,
    timeoutMs: screenshotBudgetMs(request),
    phases: options.phases,
  });
}

async function capture(job: BrowserJob, request: ScreenshotCreateRequest, options: CaptureOptions): Promise<Screenshot> {
  assertViewportPixels(request, options.maxPixels);
  const page = await job.context.newPage();
  options.phases?.mark('page');
  // A renderer that dies (out of memory, or killed over its limit) ends the job wherever it is.
  return Promise.race([captureOn(page, job, request, options), whenPageCrashes(page)]);
}

async function captureOn(page: Page, job: BrowserJob, request: ScreenshotCreateRequest, options: CaptureOptions): Promise<Screenshot> {
  const device = resolveDevice(request.device, request.width, request.height, request.device_scale);
  const timeoutMs = request.timeout * 1000;
  page.setDefaultTimeout(timeoutMs);
  dismissDialogs(page);

  await assertValidSelectors(page, 'hide_selectors', request.hide_selectors);
  if (request.wait_for_selector) await assertValidSelectors(page, 'wait_for_selector', [request.wait_for_selector]);
  // Our own style injection (hiding, ad cosmetics) must work on pages with a strict CSP.
  await page.setBypassCSP(true);
  await emulateDevice(page, device, {
    userAgent: job.userAgent,
    darkMode: request.dark_mode,
    reducedMotion: request.reduced_motion,
    highContrast: request.high_contrast,
  });
  const adblocker = request.block_ads ? await job.adblocker() : undefined;
  if (adblocker) await adblocker.enable(page);

  options.phases?.mark('setup');
  const navigationStarted = performance.now();
  const { loadTimeMs } = await navigate(page, request.url, { waitUntil: request.wait_until, timeoutMs, guard: options.urlGuard });

  options.phases?.mark('navigate');
  if (request.wait_for_selector) {
    const remaining = Math.max(500, timeoutMs - (performance.now() - navigationStarted));
    await waitForSelector(page, request.wait_for_selector, remaining, request.timeout);
  }
  await sleep(request.delay * 1000, job.signal);
  options.phases?.mark('wait');

  let clip: ScreenshotClip | undefined;
  let truncated = false;
  const maxHeight = Math.min(
    fullPageCap(options.fullPageMaxHeight, request.format, device.deviceScaleFactor),
    fullPagePixelCap(device.width, device.deviceScaleFactor, options.maxPixels),
  );
  if (request.full_page) {
    await retryAfterRedirect(page, () => scrollThrough(page, { maxHeight, budgetMs: FULL_PAGE_SCROLL.budgetMs }));
    await page.waitForNetworkIdle({ idleTime: 250, concurrency: 2, timeout: FULL_PAGE_SCROLL.settleMs }).catch(() => undefined);
    options.phases?.mark('full_page');
  }
  // Last steps in the document that will be captured (a late client-side redirect replaces it).
  await retryAfterRedirect(page, async () => {
    await hideSelectors(page, request.hide_selectors);
    if (adblocker) await adblocker.hideAds(page);
  });
  if (request.full_page) {
    const geometry = await retryAfterRedirect(page, () => pageGeometry(page));
    ({ clip, truncated } = fullPageClip(geometry, device.width, maxHeight));
  }

  const image = Buffer.from(
    await page.screenshot({
      type: request.format,
      quality: request.format === 'png' ? undefined : (request.quality ?? DEFAULT_QUALITY),
      ...(clip ? { clip, captureBeyondViewport: true } : { captureBeyondViewport: false }),
    }),
  );
  options.phases?.mark('capture');
  const size = imageSize(image);
  options.phases?.mark('metadata');
  options.logger.debug({ width: size.width, height: size.height, bytes: image.length, truncated }, 'screenshot captured');
  return {
    image,
    contentType: CONTENT_TYPES[request.format],
    metadata: {
      width: size.width,
      height: size.height,
      format: request.format,
      file_size: image.length,
      load_time: loadTimeMs,
      device: request.device,
      full_page: request.full_page,
      truncated,
      max_height: maxHeight,
    },
  };
}

async function waitForSelector(page: Page, selector: string, timeoutMs: number, requestTimeoutSeconds: number): Promise<void> {
  try {
    await page.waitForSelector(selector, { timeout: timeoutMs });
  } catch (error) {
    if (isPuppeteerTimeout(error)) {
      throw new TimeoutError(`wait_for_selector: no element matched "${selector}" within the ${requestTimeoutSeconds} s timeout`);
    }
    throw error;
  }
}
