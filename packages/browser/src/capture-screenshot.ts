import { imageSize } from 'image-size';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Page, ScreenshotClip } from 'puppeteer-core';
import {
  AppError,
  FULL_PAGE_SCROLL,
  assertClipPixels,
  assertViewportPixels,
  fullPagePixelCap,
  resolveDevice,
  screenshotBudgetMs,
  sleep,
  type ImageFormat,
  type ScreenshotFormat,
  type PhaseTimer,
  type ScreenshotCreateRequest,
  type ScreenshotMetadata,
} from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import type { BrowserJob, BrowserPool } from './browser-pool';
import { fullPageCap, fullPageClip, pageGeometry, scrollThrough } from './full-page';
import { navigate, renderContent, whenPageCrashes } from './navigate';
import {
  assertValidSelectors,
  dismissDialogs,
  emulateDevice,
  hideSelectors,
  retryAfterRedirect,
  viewportOf,
  waitForSelectors,
} from './page-setup';
import { applyPageControls } from './page-controls';
import { CONSENT_BUDGET_MS, enableConsentHandling, settleConsent } from './consent';
import type { UrlGuard } from './request-filter';
import { captureDirect, isPlainCapture, type PlainCaptureRequest } from './direct-capture';

export const DEFAULT_QUALITY = 85;
export const CONTENT_TYPES: Record<ScreenshotFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

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
  /** Plain captures on DevTools directly (`isPlainCapture`; default true): false sends every capture through puppeteer. */
  direct?: boolean;
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
  assertClipPixels(request, options.maxPixels);
  if (options.direct !== false && isPlainCapture(request)) return capturePlain(job, request, options);
  const page = await job.context.newPage();
  options.phases?.mark('page');
  // A renderer that dies (out of memory, or killed over its limit) ends the job wherever it is.
  return Promise.race([captureOn(page, job, request, options), whenPageCrashes(page)]);
}

/** Whether the capture adds styles or scripts of its own to the page (which a page's CSP would refuse). */
export function injectsIntoPage(request: ScreenshotCreateRequest): boolean {
  return (
    request.hide_selectors.length > 0 || request.block_ads || request.block_cookies || Boolean(request.styles) || Boolean(request.scripts)
  );
}

/** The device, viewport and user agent a request asks for, and the tallest image it may give. */
function pageShape(job: BrowserJob, request: ScreenshotCreateRequest, options: CaptureOptions) {
  const device = resolveDevice(request.device, request.width, request.height, request.device_scale);
  const viewport = viewportOf(device, { isMobile: request.is_mobile, hasTouch: request.has_touch, isLandscape: request.is_landscape });
  const maxHeight = Math.min(
    fullPageCap(options.fullPageMaxHeight, request.format === 'pdf' ? 'png' : request.format, device.deviceScaleFactor),
    fullPagePixelCap(request.selector ? device.width : viewport.width, device.deviceScaleFactor, options.maxPixels),
  );
  return { device, viewport, userAgent: request.user_agent ?? device.userAgent ?? job.userAgent, maxHeight };
}

/** A plain capture (`isPlainCapture`), made on DevTools without a puppeteer page. */
async function capturePlain(job: BrowserJob, request: PlainCaptureRequest, options: CaptureOptions): Promise<Screenshot> {
  const { viewport, userAgent, maxHeight } = pageShape(job, request, options);
  const { format } = request;
  const { image, loadTimeMs } = await captureDirect(job, {
    url: request.url,
    format,
    quality: format === 'png' ? undefined : (request.quality ?? DEFAULT_QUALITY),
    viewport,
    userAgent,
    delaySeconds: request.delay,
    timeoutMs: request.timeout * 1000,
    guard: options.urlGuard,
    phases: options.phases,
  });
  options.phases?.mark('capture');
  return describeImage(image, format, request, options, { loadTimeMs, truncated: false, maxHeight });
}

async function captureOn(page: Page, job: BrowserJob, request: ScreenshotCreateRequest, options: CaptureOptions): Promise<Screenshot> {
  const { viewport, userAgent, maxHeight } = pageShape(job, request, options);
  const timeoutMs = request.timeout * 1000;
  page.setDefaultTimeout(timeoutMs);
  dismissDialogs(page);

  await assertValidSelectors(page, 'hide_selectors', request.hide_selectors);
  for (const field of ['wait_for_selector', 'click_selector', 'selector'] as const) {
    const value = request[field];
    if (value) await assertValidSelectors(page, field, [value]);
  }
  // Our own injection (hiding, ad cosmetics, consent handling, `styles`, `scripts`) must work on
  // pages with a strict CSP. Only then: every DevTools call costs the browser's one UI thread.
  if (injectsIntoPage(request)) await page.setBypassCSP(true);
  await emulateDevice(page, viewport, {
    userAgent,
    darkMode: request.dark_mode,
    reducedMotion: request.reduced_motion,
    highContrast: request.high_contrast,
    print: request.print_mode,
  });
  await applyPageControls(page, {
    targetUrl: request.url,
    userAgent,
    headers: request.headers,
    cookies: request.cookies,
    httpAuth: request.http_auth,
    blockResources: request.block_resources,
    blockHosts: await Promise.all([
      ...(request.block_chats ? [job.hostList('chats')] : []),
      ...(request.block_trackers ? [job.hostList('trackers')] : []),
    ]),
    locale: request.locale,
    timezone: request.timezone,
    geolocation: request.geolocation,
    disableJs: request.disable_js,
    ignoreHttps: request.ignore_https,
  });
  const adblocker = request.block_ads ? await job.adblocker() : undefined;
  if (adblocker) await adblocker.enable(page);
  if (request.block_cookies) await enableConsentHandling(page);

  options.phases?.mark('setup');
  const navigationStarted = performance.now();
  const { loadTimeMs } = request.url
    ? await navigate(page, request.url, { waitUntil: request.wait_until, timeoutMs, guard: options.urlGuard })
    : await renderContent(page, request.html ?? '', { waitUntil: request.wait_until, timeoutMs });

  options.phases?.mark('navigate');
  if (request.wait_for_selector) {
    const remaining = Math.max(500, timeoutMs - (performance.now() - navigationStarted));
    await waitForSelectors(page, 'wait_for_selector', [request.wait_for_selector], remaining, request.timeout);
  }
  if (request.block_cookies) {
    const remaining = timeoutMs - (performance.now() - navigationStarted);
    const consent = await settleConsent(page, { budgetMs: Math.max(0, Math.min(CONSENT_BUDGET_MS, remaining)) });
    options.logger.debug({ consent }, 'consent handled');
  }
  if (request.click_selector) await clickAndSettle(page, request.click_selector);
  await sleep(request.delay * 1000, job.signal);
  options.phases?.mark('wait');

  let clip: ScreenshotClip | undefined;
  let truncated = false;
  if (request.full_page) {
    await retryAfterRedirect(page, () => scrollThrough(page, { maxHeight, budgetMs: FULL_PAGE_SCROLL.budgetMs }));
    await page.waitForNetworkIdle({ idleTime: 250, concurrency: 2, timeout: FULL_PAGE_SCROLL.settleMs }).catch(() => undefined);
    options.phases?.mark('full_page');
  }
  // Last steps in the document that will be captured (a late client-side redirect replaces it).
  await retryAfterRedirect(page, async () => {
    await hideSelectors(page, request.hide_selectors);
    if (adblocker) await adblocker.hideAds(page);
    await inject(page, request.styles, request.scripts);
  });
  if (request.full_page) {
    const geometry = await retryAfterRedirect(page, () => pageGeometry(page));
    ({ clip, truncated } = fullPageClip(geometry, viewport.width, maxHeight));
  } else if (request.selector) {
    ({ clip, truncated } = await retryAfterRedirect(page, () => elementClip(page, request.selector!, maxHeight)));
  } else if (request.clip) {
    clip = request.clip;
  }

  if (request.format === 'pdf') return printPdf(page, request, { loadTimeMs, maxHeight, phases: options.phases });
  const format: ImageFormat = request.format;
  const image = Buffer.from(
    await page.screenshot({
      type: format,
      quality: format === 'png' ? undefined : (request.quality ?? DEFAULT_QUALITY),
      omitBackground: request.omit_background,
      ...(clip ? { clip, captureBeyondViewport: true } : { captureBeyondViewport: false }),
    }),
  );
  options.phases?.mark('capture');
  return describeImage(image, format, request, options, { loadTimeMs, truncated, maxHeight });
}

/** The captured image, resized when the request asks (`image_width`, `image_height`), with its metadata. */
async function describeImage(
  captured: Buffer,
  format: ImageFormat,
  request: ScreenshotCreateRequest,
  options: CaptureOptions,
  facts: { loadTimeMs: number; truncated: boolean; maxHeight: number },
): Promise<Screenshot> {
  let image = captured;
  if (request.image_width !== undefined || request.image_height !== undefined) {
    image = await thumbnail(image, format, { width: request.image_width, height: request.image_height, quality: request.quality });
  }
  const size = imageSize(image);
  options.phases?.mark('metadata');
  options.logger.debug({ width: size.width, height: size.height, bytes: image.length, truncated: facts.truncated }, 'screenshot captured');
  return {
    image,
    contentType: CONTENT_TYPES[format],
    metadata: {
      width: size.width,
      height: size.height,
      format,
      file_size: image.length,
      load_time: facts.loadTimeMs,
      device: request.device,
      full_page: request.full_page,
      truncated: facts.truncated,
      max_height: facts.maxHeight,
    },
  };
}

/**
 * The capture scaled down (or up) to `image_width` x `image_height`: with one of them the other
 * follows the aspect ratio; with both the image fills that box, cut from the top left (where a
 * page starts, and what a thumbnail is for).
 */
async function thumbnail(image: Buffer, format: ImageFormat, size: { width?: number; height?: number; quality?: number }): Promise<Buffer> {
  const resized = sharp(image).resize({ width: size.width, height: size.height, fit: 'cover', position: 'left top' });
  const quality = size.quality ?? DEFAULT_QUALITY;
  const encoded = format === 'png' ? resized.png() : format === 'jpeg' ? resized.jpeg({ quality }) : resized.webp({ quality });
  return encoded.toBuffer();
}

/** The page printed to PDF (print media), with the request's paper, margins, scale and page ranges. */
async function printPdf(
  page: Page,
  request: ScreenshotCreateRequest,
  context: { loadTimeMs: number; maxHeight: number; phases?: PhaseTimer },
): Promise<Screenshot> {
  const pdf = request.pdf ?? { paper: 'a4' as const, landscape: false, print_background: true, scale: 1 };
  const bytes = Buffer.from(
    await page.pdf({
      format: pdf.paper,
      landscape: pdf.landscape,
      printBackground: pdf.print_background,
      margin: pdf.margin,
      scale: pdf.scale,
      pageRanges: pdf.page_ranges,
      timeout: request.timeout * 1000,
    }),
  );
  context.phases?.mark('capture');
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  const first = document.getPageCount() > 0 ? document.getPage(0).getSize() : { width: 0, height: 0 };
  context.phases?.mark('metadata');
  return {
    image: bytes,
    contentType: CONTENT_TYPES.pdf,
    metadata: {
      // The first page's size in PDF points (1/72 in).
      width: Math.round(first.width),
      height: Math.round(first.height),
      format: 'pdf',
      page_count: document.getPageCount(),
      file_size: bytes.length,
      load_time: context.loadTimeMs,
      device: request.device,
      full_page: request.full_page,
      truncated: false,
      max_height: context.maxHeight,
    },
  };
}

/**
 * Clicks the first element matching `selector` (after load and wait_for_selector), then lets the
 * page settle: what the click fetched (up to 2 s of network quiet) and one painted frame.
 */
async function clickAndSettle(page: Page, selector: string): Promise<void> {
  const element = await page.$(selector);
  if (!element) throw new AppError('SELECTOR_NOT_FOUND', `click_selector: no element matched "${selector}"`);
  try {
    await element.click();
  } catch (error) {
    throw new AppError(
      'SELECTOR_NOT_FOUND',
      `click_selector: the element matching "${selector}" could not be clicked (hidden or detached)`,
      {
        cause: error,
      },
    );
  } finally {
    await element.dispose().catch(() => undefined);
  }
  await page.waitForNetworkIdle({ idleTime: 250, concurrency: 0, timeout: 2_000 }).catch(() => undefined);
  await nextFrame(page);
}

/** Resolves after the page has painted a frame (or at once when it cannot run script). */
async function nextFrame(page: Page): Promise<void> {
  await page
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
    .catch(() => undefined);
}

/** The request's CSS and JS, added to the page's document last, before the capture. */
async function inject(page: Page, styles: string | undefined, scripts: string | undefined): Promise<void> {
  if (styles) await page.addStyleTag({ content: styles });
  if (scripts) await page.addScriptTag({ content: scripts });
  if (styles || scripts) await nextFrame(page);
}

/**
 * The clip of the first element matching `selector` in document coordinates, all of it even when it
 * is taller than the viewport (cut at `maxHeight`, then `truncated`).
 */
async function elementClip(page: Page, selector: string, maxHeight: number): Promise<{ clip: ScreenshotClip; truncated: boolean }> {
  const box = await page.evaluate((query: string) => {
    const element = document.querySelector(query);
    if (!element) return undefined;
    const rect = element.getBoundingClientRect();
    return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
  }, selector);
  if (!box) throw new AppError('SELECTOR_NOT_FOUND', `selector: no element matched "${selector}"`);
  if (box.width < 1 || box.height < 1)
    throw new AppError('SELECTOR_NOT_FOUND', `selector: the element matching "${selector}" has no size (hidden?)`);
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const width = Math.ceil(box.x + box.width) - x;
  const height = Math.ceil(box.y + box.height) - y;
  return { clip: { x, y, width, height: Math.min(height, maxHeight) }, truncated: height > maxHeight };
}
