import { imageSize } from 'image-size';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { captureScreenshot, type BrowserPool, type CaptureOptions } from '../src';
import { decodePng, deviceProbe, failure, FIXTURES, luminance, near, request, silentLogger, testPool } from './support/helpers';

const WHITE: [number, number, number] = [255, 255, 255];
const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

describe('captureScreenshot', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  const options: CaptureOptions = { fullPageMaxHeight: 16_384, maxPixels: 50_000_000, logger: silentLogger };
  const shoot = (fields: Record<string, unknown>, extra: Partial<CaptureOptions> = {}) =>
    captureScreenshot(pool, request(fields), { ...options, ...extra });
  /** A 1000x700 viewport: enough for the pixels these tests sample, and quicker to encode than 1920x1080. */
  const small = { device: 'custom', width: 1000, height: 700 } as const;
  /** The API's smallest timeout is 5 s; a shorter one keeps the failure tests quick and means the same. */
  const shootWithTimeout = (seconds: number, fields: Record<string, unknown>) =>
    captureScreenshot(pool, { ...request(fields), timeout: seconds }, options);

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    site.route('/hang', () => undefined);
    pool = testPool(
      { concurrency: 2 },
      // *.invalid never resolves (a DNS failure without waiting for a resolver).
      { extraArgs: ['--host-resolver-rules=MAP *.invalid ~NOTFOUND'] },
    );
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  describe('devices and formats', () => {
    it('captures desktop at 1920x1080 and reports the real size, bytes and load time', async () => {
      const shot = await shoot({ url: `${site.origin}/plain.html` });
      expect(shot.contentType).toBe('image/png');
      const pixels = decodePng(shot.image);
      expect([pixels.width, pixels.height]).toEqual([1920, 1080]);
      expect(near(pixels.at(1900, 1000), [0, 128, 255])).toBe(true);
      expect(shot.metadata).toMatchObject({
        width: 1920,
        height: 1080,
        format: 'png',
        file_size: shot.image.length,
        device: 'desktop',
        full_page: false,
        truncated: false,
      });
      expect(shot.metadata.load_time).toBeGreaterThan(0);
      expect(shot.metadata.load_time).toBeLessThan(10_000);
    });

    it('captures mobile at 375x667 CSS pixels and 2x: a 750x1334 image, with the mobile user agent and touch', async () => {
      const { url, reports, userAgents } = deviceProbe(site);
      const shot = await shoot({ url, device: 'mobile', wait_until: 'networkidle' });
      const pixels = decodePng(shot.image);
      expect([pixels.width, pixels.height]).toEqual([750, 1334]);
      expect(shot.metadata).toMatchObject({ width: 750, height: 1334, device: 'mobile' });
      expect(reports[0]).toEqual({ width: 375, ratio: 2, coarse: true, touch: true, portrait: true });
      expect(userAgents[0]).toMatch(/iPhone/);

      await shoot({ url, wait_until: 'networkidle' });
      expect(reports[1]).toEqual({ width: 1920, ratio: 1, coarse: false, touch: false, portrait: false });
      expect(userAgents[1]).toMatch(/Chrome\//);
      expect(userAgents[1]).not.toMatch(/Headless/);
    });

    it('captures tablet at 2x and custom sizes exactly', async () => {
      const tablet = await shoot({ url: `${site.origin}/plain.html`, device: 'tablet' });
      expect([tablet.metadata.width, tablet.metadata.height]).toEqual([1536, 2048]);
      const custom = await shoot({ url: `${site.origin}/plain.html`, device: 'custom', width: 800, height: 600 });
      const pixels = decodePng(custom.image);
      expect([pixels.width, pixels.height]).toEqual([800, 600]);
      expect(custom.metadata).toMatchObject({ width: 800, height: 600, device: 'custom' });
    });

    it('lets width, height and device_scale override a preset (the Supacrawler clients send them with desktop)', async () => {
      const shot = await shoot({ url: `${site.origin}/plain.html`, device: 'desktop', width: 640, height: 400, device_scale: 2 });
      expect([shot.metadata.width, shot.metadata.height]).toEqual([1280, 800]);
      expect(shot.metadata.device).toBe('desktop');
    });

    it('encodes real JPEG and WebP images, with quality', async () => {
      const url = `${site.origin}/tall.html`;
      const jpeg = await shoot({ url, format: 'jpeg', device: 'custom', width: 640, height: 480 });
      expect(jpeg.contentType).toBe('image/jpeg');
      expect(jpeg.image.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(imageSize(jpeg.image)).toMatchObject({ type: 'jpg', width: 640, height: 480 });
      expect(jpeg.metadata).toMatchObject({ format: 'jpeg', width: 640, height: 480, file_size: jpeg.image.length });

      const webp = await shoot({ url, format: 'webp', device: 'custom', width: 640, height: 480 });
      expect(webp.contentType).toBe('image/webp');
      expect(webp.image.subarray(0, 4).toString('ascii')).toBe('RIFF');
      expect(webp.image.subarray(8, 12).toString('ascii')).toBe('WEBP');
      expect(imageSize(webp.image)).toMatchObject({ type: 'webp', width: 640, height: 480 });

      // A noisy page makes quality visible in the byte count.
      site.route('/noise', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><body style="margin:0"><canvas id="c" width="640" height="480"></canvas><script>' +
            'const c = document.getElementById("c").getContext("2d"); let s = 7;' +
            'for (let y = 0; y < 480; y += 4) for (let x = 0; x < 640; x += 4) {' +
            's = (s * 16807) % 2147483647; c.fillStyle = "#" + (s % 0xffffff).toString(16).padStart(6, "0"); c.fillRect(x, y, 4, 4); }' +
            '</script></body></html>',
        );
      });
      const low = await shoot({ url: `${site.origin}/noise`, format: 'jpeg', quality: 10, device: 'custom', width: 640, height: 480 });
      const high = await shoot({ url: `${site.origin}/noise`, format: 'jpeg', quality: 95, device: 'custom', width: 640, height: 480 });
      expect(high.image.length).toBeGreaterThan(low.image.length * 2);
    });
  });

  describe('page options', () => {
    it('dark_mode makes the page see prefers-color-scheme: dark; without it, light', async () => {
      const dark = decodePng((await shoot({ url: `${site.origin}/dark.html`, dark_mode: true, ...small })).image);
      const light = decodePng((await shoot({ url: `${site.origin}/dark.html`, ...small })).image);
      expect(near(dark.at(500, 600), [17, 17, 17])).toBe(true);
      expect(near(light.at(500, 600), [250, 250, 250])).toBe(true);
      expect(luminance(dark.at(10, 690))).toBeLessThan(40);
      expect(luminance(light.at(10, 690))).toBeGreaterThan(200);
    });

    it('reduced_motion and high_contrast reach the page as media preferences', async () => {
      site.route('/prefs', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<style>html,body{margin:0;height:100%;background:rgb(255,255,255)}' +
            '@media (prefers-reduced-motion: reduce){html,body{background:rgb(255,0,0)}}' +
            '@media (prefers-contrast: more){html,body{background:rgb(0,0,255)}}</style>',
        );
      });
      const plain = decodePng((await shoot({ url: `${site.origin}/prefs`, ...small })).image);
      const motion = decodePng((await shoot({ url: `${site.origin}/prefs`, reduced_motion: true, ...small })).image);
      const contrast = decodePng((await shoot({ url: `${site.origin}/prefs`, high_contrast: true, ...small })).image);
      expect(near(plain.at(500, 350), WHITE)).toBe(true);
      expect(near(motion.at(500, 350), RED)).toBe(true);
      expect(near(contrast.at(500, 350), BLUE)).toBe(true);
    });

    it('hide_selectors hides the element and its descendants, keeping the layout', async () => {
      const url = `${site.origin}/hide.html`;
      const shown = decodePng((await shoot({ url, ...small })).image);
      expect(near(shown.at(300, 200), RED)).toBe(true);
      expect(near(shown.at(50, 50), RED)).toBe(true);

      const hidden = decodePng((await shoot({ url, hide_selectors: ['.promo-banner'], ...small })).image);
      expect(near(hidden.at(300, 200), WHITE)).toBe(true);
      // The child declares visibility: visible; it is hidden all the same.
      expect(near(hidden.at(50, 50), WHITE)).toBe(true);
      // visibility keeps the box: the blue block below stays where it was.
      expect(near(hidden.at(300, 450), BLUE)).toBe(true);
      expect(near(shown.at(300, 450), BLUE)).toBe(true);
    });

    it('hides in the document that is captured, after a client-side redirect', async () => {
      site.route('/js-redirect', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><body><script>addEventListener("load", () => setTimeout(() => location.assign("/hide.html"), 200))</script></body></html>',
        );
      });
      const shot = await shoot({ url: `${site.origin}/js-redirect`, hide_selectors: ['.promo-banner'], delay: 1, ...small });
      const pixels = decodePng(shot.image);
      expect(near(pixels.at(300, 450), BLUE)).toBe(true); // hide.html is what was captured
      expect(near(pixels.at(300, 200), WHITE)).toBe(true);
    });

    it('rejects an invalid CSS selector with a clear message before loading the page', async () => {
      site.hits.length = 0;
      // The gateway's syntax check lets this one through; the browser's grammar is the final word.
      const error = await failure(
        captureScreenshot(pool, { ...request({ url: `${site.origin}/hide.html` }), hide_selectors: ['.ok', '.x >'] }, options),
      );
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.message).toBe('hide_selectors[1] is not a valid CSS selector: .x >');
      expect(site.hits).not.toContain('/hide.html');
    });

    it('wait_for_selector waits for an element a script adds later', async () => {
      const url = `${site.origin}/late.html`;
      const early = decodePng((await shoot({ url, ...small })).image);
      expect(near(early.at(250, 150), WHITE)).toBe(true);
      const waited = await shoot({ url, wait_for_selector: '#late', ...small });
      expect(near(decodePng(waited.image).at(250, 150), [0, 160, 0])).toBe(true);
    });

    it('a wait_for_selector that never matches fails with TIMEOUT within the request timeout', async () => {
      // Nothing else ends this wait: the message naming the 2 s timeout is the proof, not a stopwatch.
      const error = await failure(shootWithTimeout(2, { url: `${site.origin}/plain.html`, wait_for_selector: '#never' }));
      expect(error.code).toBe('TIMEOUT');
      expect(error.retryable).toBe(false);
      expect(error.message).toBe('wait_for_selector: no element matched "#never" within the 2 s timeout');
    });

    it('delay waits before capturing', async () => {
      site.route('/after-a-second', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><body style="margin:0;background:#fff"><script>setTimeout(() => document.body.style.background = "rgb(0,0,255)", 1000)</script></body></html>',
        );
      });
      const started = Date.now();
      const shot = await shoot({ url: `${site.origin}/after-a-second`, delay: 1.5, ...small });
      // A lower bound only: load can make the capture later, never earlier.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(near(decodePng(shot.image).at(500, 500), BLUE)).toBe(true);
    });

    it('wait_until networkidle waits for late requests to finish', async () => {
      // Three parallel requests: networkidle (at most two open for 500 ms) cannot pass while all are open.
      site.route('/slow.json', (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"color":"rgb(0,0,255)"}'), 1_200);
      });
      site.route('/fetches', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><body style="margin:0;background:#fff"><script>' +
            'Promise.all([1, 2, 3].map((n) => fetch("/slow.json?n=" + n).then((r) => r.json())))' +
            '.then(([d]) => document.body.style.background = d.color)' +
            '</script></body></html>',
        );
      });
      const onLoad = decodePng((await shoot({ url: `${site.origin}/fetches`, wait_until: 'load', ...small })).image);
      const onIdle = decodePng((await shoot({ url: `${site.origin}/fetches`, wait_until: 'networkidle', ...small })).image);
      expect(near(onLoad.at(500, 500), WHITE)).toBe(true);
      expect(near(onIdle.at(500, 500), BLUE)).toBe(true);
    });
  });

  describe('full page', () => {
    it('captures the whole page after a lazy-load scroll pass', async () => {
      const shot = await shoot({ url: `${site.origin}/tall.html`, full_page: true, device: 'custom', width: 800, height: 600 });
      const pixels = decodePng(shot.image);
      expect([pixels.width, pixels.height]).toEqual([800, 5600]);
      expect(shot.metadata).toMatchObject({ width: 800, height: 5600, full_page: true, truncated: false, max_height: 16_384 });
      // The lazy section (4000..4600) only turns green once it has been scrolled into view.
      expect(near(pixels.at(400, 4300), [0, 200, 0])).toBe(true);
      // Back at the top before capturing: the first band starts at y=0.
      expect(near(pixels.at(400, 10), [230, 230, 230])).toBe(true);
    });

    it('cuts the page at the height cap and says so', async () => {
      const shot = await shoot(
        { url: `${site.origin}/tall.html`, full_page: true, device: 'custom', width: 800, height: 600 },
        { fullPageMaxHeight: 2_500 },
      );
      expect(imageSize(shot.image)).toMatchObject({ width: 800, height: 2_500 });
      expect(shot.metadata).toMatchObject({ height: 2_500, truncated: true, max_height: 2_500 });
    });

    it('keeps a zoomed-out mobile page whole: as wide as the device, both halves of its 980 px layout', async () => {
      site.route('/wide', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><body style="margin:0"><div style="display:flex;height:3000px"><div style="flex:1;background:rgb(255,0,0)"></div><div style="flex:1;background:rgb(0,0,255)"></div></div></body></html>',
        );
      });
      const shot = await shoot({ url: `${site.origin}/wide`, device: 'mobile', full_page: true });
      const pixels = decodePng(shot.image);
      // 3000 layout px shown at 375/980 and drawn at 2x.
      expect(pixels.width).toBe(750);
      expect(Math.abs(pixels.height - Math.round((3000 * 375 * 2) / 980))).toBeLessThanOrEqual(2);
      expect(near(pixels.at(10, 1000), RED)).toBe(true);
      expect(near(pixels.at(740, 1000), BLUE)).toBe(true);
      expect(near(pixels.at(740, pixels.height - 10), BLUE)).toBe(true);
    });

    it('counts the cap in CSS pixels: a 2x mobile capture is twice as tall in image pixels', async () => {
      const shot = await shoot({ url: `${site.origin}/tall.html`, full_page: true, device: 'mobile' }, { fullPageMaxHeight: 1_000 });
      expect(shot.metadata).toMatchObject({ width: 750, height: 2_000, truncated: true, max_height: 1_000 });
    });
  });

  describe('failures', () => {
    it('a refused connection fails with NAVIGATION_FAILED, not retryable', async () => {
      const closed = await startFixtureSite();
      await closed.close();
      const error = await failure(shoot({ url: `${closed.origin}/` }));
      expect(error.code).toBe('NAVIGATION_FAILED');
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(`Could not load ${closed.origin}/: net::ERR_CONNECTION_REFUSED`);
    });

    it('a host that does not resolve fails with NAVIGATION_FAILED', async () => {
      const error = await failure(shoot({ url: 'http://no-such-host.invalid/page' }));
      expect(error.code).toBe('NAVIGATION_FAILED');
      expect(error.message).toBe('Could not load http://no-such-host.invalid/page: net::ERR_NAME_NOT_RESOLVED');
    });

    it('a page that never answers fails with TIMEOUT within the request timeout', async () => {
      const started = Date.now();
      const error = await failure(shootWithTimeout(2, { url: `${site.origin}/hang` }));
      const elapsed = Date.now() - started;
      expect(error.code).toBe('TIMEOUT');
      expect(error.retryable).toBe(false);
      expect(error.message).toBe(`${site.origin}/hang did not finish loading within 2 s (wait_until=load)`);
      expect(elapsed).toBeGreaterThanOrEqual(1_950); // a lower bound only: load makes it later, never earlier
    });

    it('an HTTP error page is still captured (the page loaded)', async () => {
      const shot = await shoot({ url: `${site.origin}/missing.html`, ...small });
      expect(shot.metadata.width).toBe(1000);
    });
  });
});
