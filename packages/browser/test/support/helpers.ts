import path from 'node:path';
import { PNG } from 'pngjs';
import { AppError, screenshotCreateRequest, type ScreenshotCreateRequest } from '@sitelens/contracts';
import { createLogger, createMetrics, type Logger } from '@sitelens/telemetry';
import { BrowserPool, type BrowserPoolConfig, type BrowserPoolDeps } from '../../src';
import { chromePath, type FixtureSite } from '@sitelens/testkit';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');
export const silentLogger: Logger = createLogger({ level: 'silent', service: 'browser-test' });

export function testPool(config: Partial<BrowserPoolConfig> = {}, deps: Partial<BrowserPoolDeps> = {}): BrowserPool {
  return new BrowserPool(
    { executablePath: chromePath(), concurrency: 2, recycleAfter: 1000, ...config },
    { logger: silentLogger, ...deps },
  );
}

export function testMetrics() {
  return createMetrics({ service: 'browser-test', collectDefaults: false });
}

/** A request as the gateway would hand it over: parsed, defaults filled in. */
export function request(fields: Record<string, unknown>): ScreenshotCreateRequest {
  return screenshotCreateRequest.parse(fields);
}

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

export function decodePng(image: Buffer): Pixels {
  const png = PNG.sync.read(image);
  return {
    width: png.width,
    height: png.height,
    at(x, y) {
      const i = (png.width * y + x) * 4;
      return [png.data[i] ?? -1, png.data[i + 1] ?? -1, png.data[i + 2] ?? -1];
    },
  };
}

/** Within a small tolerance per channel (antialiasing, color management). */
export function near(actual: [number, number, number], expected: [number, number, number], tolerance = 12): boolean {
  return actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= tolerance);
}

export function luminance([r, g, b]: [number, number, number]): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Resolves once `predicate` holds, polling; fails after `timeoutMs`. */
export async function eventually(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The AppError a promise rejects with (fails the test when it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

export async function expectAppError(promise: Promise<unknown>, code: string, retryable: boolean): Promise<AppError> {
  const error = await failure(promise);
  expect(error.code).toBe(code);
  expect(error.retryable).toBe(retryable);
  return error;
}

/**
 * `/probe` on `site`: a page that reports what it sees of the device (width, pixel ratio, coarse
 * pointer, touch, portrait) and records the user agent it was asked with. The report is an image
 * in the document, so it is in before the page's load event.
 */
export function deviceProbe(site: FixtureSite): { url: string; reports: Array<Record<string, unknown>>; userAgents: string[] } {
  const reports: Array<Record<string, unknown>> = [];
  const userAgents: string[] = [];
  site.route('/probe', (req, res) => {
    userAgents.push(String(req.headers['user-agent']));
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      '<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><script>' +
        'const data = { width: innerWidth, ratio: devicePixelRatio, coarse: matchMedia("(pointer: coarse)").matches, touch: navigator.maxTouchPoints > 0, portrait: matchMedia("(orientation: portrait)").matches };' +
        'document.write(`<img src="/probe-report?d=${encodeURIComponent(JSON.stringify(data))}">`);' +
        '</script></body></html>',
    );
  });
  site.route('/probe-report', (req, res) => {
    reports.push(JSON.parse(new URL(req.url ?? '', 'http://x').searchParams.get('d') ?? '{}') as Record<string, unknown>);
    res.writeHead(204).end();
  });
  return { url: `${site.origin}/probe`, reports, userAgents };
}
