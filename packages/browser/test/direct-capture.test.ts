/**
 * Plain captures go to DevTools directly (`isPlainCapture`), everything else through a puppeteer
 * page. Both ways must give the same image and the same failures; what only the direct way does
 * for itself (dialogs, the mobile emulation, its own load wait) is checked here, and the failure
 * tests of capture-screenshot, page-bounds and egress run on it too (their requests are plain).
 */
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { captureScreenshot, type BrowserPool, type CaptureOptions } from '../src';
import { isPlainCapture } from '../src/direct-capture';
import { decodePng, deviceProbe, failure, FIXTURES, near, request, silentLogger, testPool } from './support/helpers';

describe('isPlainCapture', () => {
  const url = 'http://example.com/';

  it('takes a URL at any device, size and image format, with a user agent, a delay and delivery options', () => {
    for (const fields of [
      { url },
      { url, device: 'mobile' },
      { url, device: 'custom', width: 800, height: 600, device_scale: 2, is_landscape: true, has_touch: true, is_mobile: true },
      { url, format: 'jpeg', quality: 40, image_width: 320 },
      { url, format: 'webp', image_height: 200 },
      { url, user_agent: 'Bot/1.0', delay: 2, timeout: 60, stream: true, cache_ttl: 60 },
      { url, webhook_url: 'https://hooks.example/x', webhook_headers: { 'x-a': 'b' } },
      // Defaults spelled out are still defaults.
      { url, full_page: false, hide_selectors: [], block_ads: false, wait_until: 'load' },
    ]) {
      expect([fields, isPlainCapture(request(fields))]).toEqual([fields, true]);
    }
  });

  it('leaves everything that touches the page to puppeteer', () => {
    for (const fields of [
      { html: '<p>hi</p>' },
      { url, format: 'pdf' },
      { url, full_page: true },
      { url, selector: 'main' },
      { url, clip: { x: 0, y: 0, width: 100, height: 100 } },
      { url, omit_background: true },
      { url, dark_mode: true },
      { url, reduced_motion: true },
      { url, high_contrast: true },
      { url, print_mode: true },
      { url, hide_selectors: ['.ad'] },
      { url, block_ads: true },
      { url, block_cookies: true },
      { url, block_chats: true },
      { url, block_trackers: true },
      { url, block_resources: ['image'] },
      { url, wait_for_selector: 'main' },
      { url, click_selector: 'button' },
      { url, wait_until: 'networkidle' },
      { url, wait_until: 'domcontentloaded' },
      { url, headers: { 'x-a': 'b' } },
      { url, cookies: [{ name: 'a', value: 'b' }] },
      { url, http_auth: { username: 'u', password: 'p' } },
      { url, locale: 'de-DE' },
      { url, timezone: 'Europe/Berlin' },
      { url, geolocation: { latitude: 1, longitude: 2 } },
      { url, disable_js: true },
      { url, ignore_https: true },
      { url, styles: 'body{}' },
      { url, scripts: 'void 0' },
    ]) {
      expect([fields, isPlainCapture(request(fields))]).toEqual([fields, false]);
    }
  });

  it('sends a field it does not know at a value other than its default to puppeteer', () => {
    expect(isPlainCapture({ ...request({ url }), some_new_option: true } as never)).toBe(false);
    expect(isPlainCapture({ ...request({ url }), some_new_option: undefined } as never)).toBe(true);
  });
});

describe('plain captures on DevTools directly', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  const options: CaptureOptions = { fullPageMaxHeight: 16_384, maxPixels: 50_000_000, logger: silentLogger };
  const both = async (fields: Record<string, unknown>) => {
    const parsed = request(fields);
    expect(isPlainCapture(parsed)).toBe(true);
    const direct = await captureScreenshot(pool, parsed, options);
    const viaPuppeteer = await captureScreenshot(pool, parsed, { ...options, direct: false });
    return { direct, viaPuppeteer };
  };

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    pool = testPool({ concurrency: 2 });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('gives the image puppeteer gives, byte for byte, at every device and format', async () => {
    for (const fields of [
      { url: `${site.origin}/plain.html` },
      { url: `${site.origin}/tall.html`, device: 'mobile' },
      { url: `${site.origin}/tall.html`, device: 'custom', width: 700, height: 500, device_scale: 1.5, is_landscape: true },
      { url: `${site.origin}/dark.html`, device: 'tablet', format: 'jpeg', quality: 50 },
      { url: `${site.origin}/plain.html`, device: 'custom', width: 640, height: 480, format: 'webp', quality: 80 },
    ]) {
      const { direct, viaPuppeteer } = await both(fields);
      expect([fields, direct.image.equals(viaPuppeteer.image)]).toEqual([fields, true]);
      expect({ ...direct.metadata, load_time: 0 }).toEqual({ ...viaPuppeteer.metadata, load_time: 0 });
      expect(direct.contentType).toBe(viaPuppeteer.contentType);
    }
  });

  it('emulates the device the page sees: width, pixel ratio, touch, orientation and user agent', async () => {
    const { url, reports, userAgents } = deviceProbe(site);
    const mobile = { url, device: 'mobile' };
    const { direct } = await both(mobile);
    expect(reports).toEqual([
      { width: 375, ratio: 2, coarse: true, touch: true, portrait: true },
      { width: 375, ratio: 2, coarse: true, touch: true, portrait: true },
    ]);
    expect(userAgents[0]).toMatch(/iPhone/);
    expect(userAgents[0]).toBe(userAgents[1]);
    expect([direct.metadata.width, direct.metadata.height]).toEqual([750, 1334]);

    await both({ url, user_agent: 'SitelensTest/1.0' });
    expect(reports.slice(2)).toEqual([
      { width: 1920, ratio: 1, coarse: false, touch: false, portrait: false },
      { width: 1920, ratio: 1, coarse: false, touch: false, portrait: false },
    ]);
    expect(userAgents.slice(2)).toEqual(['SitelensTest/1.0', 'SitelensTest/1.0']);

    await both({ url });
    expect(userAgents[4]).toMatch(/Chrome\//);
    expect(userAgents[4]).not.toMatch(/Headless/);
    expect(userAgents[5]).toBe(userAgents[4]);
  });

  it('dismisses an alert the page raises while loading and captures what follows it', async () => {
    site.route('/alert', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><body style="margin:0"><script>alert("hello"); confirm("sure?");</script>' +
          '<div style="width:100vw;height:100vh;background:rgb(255,0,0)"></div></body></html>',
      );
    });
    const shot = await captureScreenshot(pool, request({ url: `${site.origin}/alert`, device: 'custom', width: 400, height: 300 }), {
      ...options,
    });
    expect(near(decodePng(shot.image).at(200, 150), [255, 0, 0])).toBe(true);
  });

  it('waits for the load event of the page, not of about:blank: late subresources are in the image', async () => {
    site.route('/late-image', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body style="margin:0"><img src="/slow.svg" width="400" height="300"></body></html>');
    });
    let release: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      site.route('/slow.svg', (_req, res) => {
        resolve();
        release = () => {
          res.writeHead(200, { 'content-type': 'image/svg+xml' });
          res.end('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#0000ff"/></svg>');
        };
      });
    });
    const shooting = captureScreenshot(
      pool,
      request({ url: `${site.origin}/late-image`, device: 'custom', width: 400, height: 300 }),
      options,
    );
    await requested;
    release();
    expect(near(decodePng((await shooting).image).at(200, 150), [0, 0, 255])).toBe(true);
  });

  it('captures an error status with an empty body (the error page Chromium shows), as puppeteer does', async () => {
    site.route('/empty-500', (_req, res) => {
      res.writeHead(500).end();
    });
    const { direct, viaPuppeteer } = await both({ url: `${site.origin}/empty-500`, device: 'custom', width: 400, height: 300 });
    expect(direct.image.equals(viaPuppeteer.image)).toBe(true);
  });

  it('gives a cross-site frame the user agent of the page', async () => {
    const frameAgents: string[] = [];
    const frameOrigin = site.origin.replace('127.0.0.1', 'localhost');
    site.route('/framed', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><iframe src="${frameOrigin}/frame-probe"></iframe></body></html>`);
    });
    site.route('/frame-probe', (req, res) => {
      frameAgents.push(String(req.headers['user-agent']));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>frame</p>');
    });
    await both({ url: `${site.origin}/framed`, user_agent: 'SitelensTest/2.0' });
    expect(frameAgents).toEqual(['SitelensTest/2.0', 'SitelensTest/2.0']);
  });

  it('fails a response without a page (204) as puppeteer does', async () => {
    site.route('/empty', (_req, res) => {
      res.writeHead(204).end();
    });
    const parsed = request({ url: `${site.origin}/empty`, timeout: 5 });
    const direct = await failure(captureScreenshot(pool, parsed, options));
    const viaPuppeteer = await failure(captureScreenshot(pool, parsed, { ...options, direct: false }));
    expect([direct.code, direct.message]).toEqual([viaPuppeteer.code, viaPuppeteer.message]);
  });
});
