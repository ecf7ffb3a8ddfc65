/**
 * One page cannot take the worker down: a page that allocates without bound dies alone with
 * PAGE_CRASHED (its JS heap cap, or the renderer memory limit for memory outside the JS heap), the
 * next job on the same browser completes, and captures are bounded in pixels.
 */
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { captureScreenshot, renderHtml, type BrowserPool, type CaptureOptions } from '../src';
import { FIXTURES, expectAppError, request, silentLogger, testPool } from './support/helpers';

const html = (script: string) => `<!doctype html><html><body><p>allocating</p><script>${script}</script></body></html>`;

describe('bounded pages', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  const options: CaptureOptions = { fullPageMaxHeight: 16_384, maxPixels: 50_000_000, logger: silentLogger };

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    // Ordinary JS objects: stopped by the renderer's V8 heap cap.
    site.route('/heap', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(html('const keep = []; for (;;) keep.push(new Array(100000).fill(Math.random()));'));
    });
    // Typed arrays live outside the V8 heap: stopped by the renderer memory watchdog.
    site.route('/buffers', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          html(
            'const keep = []; setInterval(() => { for (let i = 0; i < 8; i++) { const b = new Uint8Array(16 << 20); b.fill(7); keep.push(b); } }, 20);',
          ),
        );
    });
    // The same, all before the page has loaded (a render waits for load).
    site.route('/buffers-sync', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(html('const keep = []; for (;;) { const b = new Uint8Array(16 << 20); b.fill(7); keep.push(b); }'));
    });
    pool = testPool({ concurrency: 2, pageMemoryLimitMb: 384 });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('fails a page whose script fills its JS heap with PAGE_CRASHED, not retryable', async () => {
    const error = await expectAppError(
      captureScreenshot(pool, request({ url: `${site.origin}/heap`, timeout: 60 }), options),
      'PAGE_CRASHED',
      false,
    );
    expect(error.status).toBe(422);
  });

  it('kills a renderer past its memory limit (memory outside the JS heap) with PAGE_CRASHED', async () => {
    await expectAppError(
      captureScreenshot(pool, request({ url: `${site.origin}/buffers`, timeout: 60, delay: 30 }), options),
      'PAGE_CRASHED',
      false,
    );
    await expectAppError(renderHtml(pool, `${site.origin}/buffers-sync`, { timeoutMs: 60_000 }), 'PAGE_CRASHED', false);
  });

  it('keeps serving: a light page on the same browser completes after them', async () => {
    const launches = pool.stats().launches;
    const shot = await captureScreenshot(
      pool,
      request({ url: `${site.origin}/plain.html`, device: 'custom', width: 640, height: 480 }),
      options,
    );
    expect(shot.metadata).toMatchObject({ width: 640, height: 480 });
    expect(pool.stats().launches).toBe(launches);
  });

  describe('pixels per capture', () => {
    it('refuses a viewport above the cap with a 400 naming the fields', async () => {
      const error = await expectAppError(
        captureScreenshot(
          pool,
          request({ url: `${site.origin}/plain.html`, device: 'custom', width: 3840, height: 2160, device_scale: 3 }),
          options,
        ),
        'INVALID_REQUEST',
        false,
      );
      expect(error.message).toMatch(
        /width x height x device_scale² is 74,649,600 pixels .*at most 50,000,000: lower width, height or device_scale/,
      );
    });

    it('cuts a full page at the cap and says so', async () => {
      const shot = await captureScreenshot(
        pool,
        request({ url: `${site.origin}/tall.html`, full_page: true, device: 'custom', width: 800, height: 600 }),
        { ...options, maxPixels: 2_000_000 },
      );
      expect(shot.metadata).toMatchObject({ width: 800, height: 2500, truncated: true, max_height: 2500 });
    });
  });
});
