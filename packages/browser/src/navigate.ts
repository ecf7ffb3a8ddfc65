import { TimeoutError as PuppeteerTimeout, type HTTPResponse, type Page, type PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { AppError, TimeoutError, Unavailable, errorMessage, isAppError, type WaitUntil } from '@sitelens/contracts';
import type { RequestFilter } from './request-filter';

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
  filter?: RequestFilter;
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

/** A promise that rejects when the page's renderer dies (out of memory, crash). */
export function whenPageCrashes(page: Page): Promise<never> {
  return new Promise((_resolve, reject) => {
    page.once('error', (error) =>
      reject(new Unavailable('The page crashed while loading (its renderer process died)', { cause: error })),
    );
  });
}

/** Loads `url` and maps every failure to a client-facing error with a code. */
export async function navigate(page: Page, url: string, options: NavigateOptions): Promise<Navigation> {
  const started = performance.now();
  const crashed = whenPageCrashes(page);
  crashed.catch(() => undefined);
  try {
    const response = await Promise.race([
      page.goto(url, { waitUntil: WAIT_UNTIL_EVENT[options.waitUntil], timeout: options.timeoutMs }),
      crashed,
    ]);
    return { response, loadTimeMs: Math.round(performance.now() - started) };
  } catch (error) {
    throw navigationError(url, error, options);
  }
}

export function navigationError(url: string, error: unknown, options: NavigateOptions): Error {
  const refusal = options.filter?.navigationRefusal();
  if (refusal) return refusal;
  if (isAppError(error)) return error;
  if (isPuppeteerTimeout(error)) {
    return new TimeoutError(`${url} did not finish loading within ${seconds(options.timeoutMs)} (wait_until=${options.waitUntil})`);
  }
  const message = errorMessage(error);
  const netError = /net::ERR_[A-Z0-9_]+/.exec(message);
  if (netError) return new AppError('NAVIGATION_FAILED', `Could not load ${url}: ${netError[0]}`, { cause: error });
  return error instanceof Error ? error : new Error(message);
}
