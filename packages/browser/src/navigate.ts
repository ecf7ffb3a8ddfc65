import { TimeoutError as PuppeteerTimeout, type HTTPResponse, type Page, type PuppeteerLifeCycleEvent } from 'puppeteer-core';
import {
  AppError,
  EGRESS_REFUSAL_HEADER,
  TimeoutError,
  URL_BLOCKED_MESSAGE,
  UrlBlocked,
  errorMessage,
  isAppError,
  type WaitUntil,
} from '@sitelens/contracts';
import type { UrlGuard } from './request-filter';

/**
 * The contract's `networkidle` is Puppeteer's `networkidle2` (at most two connections open for
 * 500 ms), not `networkidle0`: analytics beacons, long polling, server-sent events and chat widgets
 * keep a connection or two open forever on many real pages, and with `networkidle0` those pages
 * would only ever end in a timeout. Two stragglers are a fair price for that.
 */
export const WAIT_UNTIL_EVENT: Record<WaitUntil, PuppeteerLifeCycleEvent> = {
  load: 'load',
  domcontentloaded: 'domcontentloaded',
  networkidle: 'networkidle2',
};

export interface NavigateOptions {
  waitUntil: WaitUntil;
  timeoutMs: number;
  /** Asked for the page's URL before loading it (hosted mode's URL policy). */
  guard?: UrlGuard;
}

export interface Navigation {
  response: HTTPResponse | null;
  /** Milliseconds from the start of navigation until `waitUntil` was reached. */
  loadTimeMs: number;
}

export function isPuppeteerTimeout(error: unknown): boolean {
  return error instanceof PuppeteerTimeout || (error instanceof Error && error.name === 'TimeoutError' && !isAppError(error));
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function pageCrashed(cause?: unknown): AppError {
  return new AppError('PAGE_CRASHED', 'The page crashed: its renderer ran out of memory or died', { cause });
}

/**
 * A promise that rejects with PAGE_CRASHED when the page's renderer dies: out of memory (its JS
 * heap cap or the renderer memory limit), or a crash. The page's own doing, so not retried; the
 * browser and the other pages go on. Never settles otherwise; nothing needs to wait on it.
 */
export function whenPageCrashes(page: Page): Promise<never> {
  const crashed = new Promise<never>((_resolve, reject) => {
    page.once('error', (error) => reject(pageCrashed(error)));
  });
  crashed.catch(() => undefined);
  return crashed;
}

/** Loads `url` and maps every failure to a client-facing error with a code. */
export async function navigate(page: Page, url: string, options: NavigateOptions): Promise<Navigation> {
  await options.guard?.(url);
  const started = performance.now();
  try {
    const response = await page.goto(url, { waitUntil: WAIT_UNTIL_EVENT[options.waitUntil], timeout: options.timeoutMs });
    // The egress proxy refused the document (a redirect inside, or a name whose answer changed).
    if (response?.headers()[EGRESS_REFUSAL_HEADER]) throw new UrlBlocked(URL_BLOCKED_MESSAGE);
    return { response, loadTimeMs: Math.round(performance.now() - started) };
  } catch (error) {
    throw navigationError(url, error, options);
  }
}

/**
 * Renders `html` as the page (`html` instead of `url`): its document is about:blank, so relative
 * links resolve nowhere; what it loads goes out like any page's requests (through the egress proxy
 * in hosted mode).
 */
export async function renderContent(page: Page, html: string, options: Omit<NavigateOptions, 'guard'>): Promise<Navigation> {
  const started = performance.now();
  try {
    // setContent knows load and domcontentloaded only: networkidle is load, then the network quiet.
    await page.setContent(html, {
      waitUntil: options.waitUntil === 'domcontentloaded' ? 'domcontentloaded' : 'load',
      timeout: options.timeoutMs,
    });
    if (options.waitUntil === 'networkidle') {
      const left = Math.max(1, options.timeoutMs - (performance.now() - started));
      await page.waitForNetworkIdle({ idleTime: 500, timeout: left });
    }
    return { response: null, loadTimeMs: Math.round(performance.now() - started) };
  } catch (error) {
    throw navigationError('the html', error, options);
  }
}

/** The error of a page that did not reach `waitUntil` within the request's timeout. */
export function loadTimeout(url: string, options: Pick<NavigateOptions, 'timeoutMs' | 'waitUntil'>): TimeoutError {
  return new TimeoutError(`${url} did not finish loading within ${seconds(options.timeoutMs)} (wait_until=${options.waitUntil})`);
}

export function navigationError(url: string, error: unknown, options: NavigateOptions): Error {
  if (isAppError(error)) return error;
  if (isPuppeteerTimeout(error)) return loadTimeout(url, options);
  const message = errorMessage(error);
  const netError = /net::ERR_[A-Z0-9_]+/.exec(message);
  if (netError) return new AppError('NAVIGATION_FAILED', `Could not load ${url}: ${netError[0]}`, { cause: error });
  return error instanceof Error ? error : new Error(message);
}
