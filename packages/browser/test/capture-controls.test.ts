/**
 * Capture controls, against a local site under two names (target.test and thirdparty.test, both
 * mapped to 127.0.0.1) so what reaches the target's site and what reaches a third party can be
 * told apart: headers, cookies, user agent, basic auth, blocked resources, JavaScript off, print
 * media, clicks, injected CSS/JS, element and clip captures, transparency, time zone, locale,
 * geolocation, orientation and certificate errors. Options are also tested together.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { captureScreenshot, type BrowserPool, type CaptureOptions } from '../src';
import { decodePng, failure, near, request, silentLogger, testPool } from './support/helpers';

const WHITE: [number, number, number] = [255, 255, 255];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const RED: [number, number, number] = [255, 0, 0];

/**
 * Each page's text, from the PDF itself (Mozilla's pdf.js). pdf.js is an ES module, which this
 * CommonJS test runtime cannot load, so a child Node reads the PDF from stdin.
 */
function pdfText(pdf: Buffer): string[] {
  const script = `
    const { getDocument } = await import(${JSON.stringify(require.resolve('pdfjs-dist/legacy/build/pdf.mjs'))});
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    const document = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), isEvalSupported: false }).promise;
    const pages = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => item.str ?? '').join(' ').replace(/\\s+/g, ' ').trim());
    }
    process.stdout.write(JSON.stringify(pages));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: pdf, encoding: 'utf8' })) as string[];
}

interface Seen {
  path: string;
  host: string;
  headers: IncomingHttpHeaders;
}

describe('capture controls', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  let seen: Seen[] = [];
  let reports: Array<Record<string, string>> = [];
  let target: string;
  let thirdParty: string;
  const options: CaptureOptions = { fullPageMaxHeight: 16_384, maxPixels: 50_000_000, logger: silentLogger };
  const small = { device: 'custom', width: 800, height: 600 } as const;
  const shoot = (fields: Record<string, unknown>) => captureScreenshot(pool, request({ ...small, ...fields }), options);
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };

  beforeAll(async () => {
    site = await startFixtureSite();
    target = `http://target.test:${site.port}`;
    thirdParty = `http://thirdparty.test:${site.port}`;
    const record = (req: import('node:http').IncomingMessage) =>
      seen.push({
        path: new URL(req.url ?? '/', 'http://x').pathname,
        host: (req.headers.host ?? '').split(':')[0] ?? '',
        headers: req.headers,
      });
    site.route('/page', (req, res) => {
      record(req);
      html(
        `<!doctype html><html><head><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>` +
          `<body style="margin:0"><img src="/pixel.svg" width="10" height="10"><img src="${thirdParty}/tracker.svg" width="10" height="10"></body></html>`,
      )(req, res);
    });
    for (const [file, type, body] of [
      ['/style.css', 'text/css', 'body{background:#fff}'],
      ['/app.js', 'application/javascript', 'window.appRan = true;'],
      ['/pixel.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'],
      ['/tracker.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'],
    ] as const) {
      site.route(file, (req, res) => {
        record(req);
        res.writeHead(200, { 'content-type': type }).end(body);
      });
    }
    site.route('/report', (req, res) => {
      reports.push(Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams));
      res.writeHead(204).end();
    });
    site.route(
      '/media',
      html(
        `<!doctype html><style>html,body{margin:0;height:100%;background:#fff} #p,#c{width:200px;height:200px} ` +
          `@media print{#p{background:rgb(0,255,0)}} @media (prefers-contrast: more){#c{background:rgb(0,0,255)}}</style><div id="p"></div><div id="c"></div>`,
      ),
    );
    // A strict CSP: the page's own inline style (red) is refused, and so would be anything injected.
    site.route('/csp', (_req, res) => {
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'none'; script-src 'none'",
        })
        .end(
          `<!doctype html><html><head><style>body{background:rgb(255,0,0)}</style></head><body style="margin:0"><div id="ad" style="width:50px;height:50px">ad</div></body></html>`,
        );
    });
    site.route(
      '/red-by-script',
      html(`<!doctype html><body style="margin:0;background:#fff"><script>document.body.style.background='rgb(255,0,0)'</script></body>`),
    );
    site.route(
      '/click',
      html(
        `<!doctype html><body style="margin:0;background:#fff"><button id="go" style="width:100px;height:40px" onclick="document.body.style.background='rgb(0,0,255)'">go</button></body>`,
      ),
    );
    site.route(
      '/tall-element',
      html(
        `<!doctype html><body style="margin:0;background:#fff"><div style="height:50px"></div>` +
          `<div id="card" style="margin-left:30px;width:300px;height:1500px;background:rgb(0,255,0)"></div></body>`,
      ),
    );
    site.route(
      '/transparent',
      html(`<!doctype html><body style="margin:0"><div style="width:100px;height:100px;background:rgb(255,0,0)"></div></body>`),
    );
    site.route(
      '/where',
      html(
        `<!doctype html><body><script>
          const report = (fields) => fetch('/report?' + new URLSearchParams(fields));
          report({ tz: Intl.DateTimeFormat().resolvedOptions().timeZone, lang: navigator.language, hour: String(new Date(Date.UTC(2026, 0, 1, 12)).getHours()) });
          navigator.geolocation.getCurrentPosition((p) => report({ lat: String(p.coords.latitude), lon: String(p.coords.longitude) }), (e) => report({ geoError: e.message }));
        </script></body>`,
      ),
    );
    site.route(
      '/touch',
      html(
        `<!doctype html><body><script>fetch('/report?' + new URLSearchParams({ touch: String(navigator.maxTouchPoints > 0), width: String(innerWidth) }))</script></body>`,
      ),
    );
    site.route(
      '/widgets',
      html(
        `<!doctype html><body><script src="/app.js"></script>` +
          `<script src="http://code.tidio.co:${site.port}/widget.js"></script>` +
          `<script src="http://static.hotjar.com:${site.port}/analytics.js"></script></body>`,
      ),
    );
    // Hosts from the bundled lists that are not on Chromium's HSTS preload list (an http:// URL of a
    // preloaded one, such as intercom.io, is upgraded to https and never reaches this site).
    for (const file of ['/widget.js', '/analytics.js']) {
      site.route(file, (req, res) => {
        record(req);
        res.writeHead(200, { 'content-type': 'application/javascript' }).end('');
      });
    }
    // A consent banner of a known platform (orestbida's cookieconsent v2 markup): rejecting reports it.
    site.route(
      '/consent-known',
      html(
        `<!doctype html><html class="show--consent"><body style="margin:0;background:#fff">` +
          `<div id="cc--main"><div id="cm" style="position:fixed;left:0;right:0;bottom:0;height:150px;background:rgb(255,0,0)">` +
          `<button id="s-all-bn">Accept all</button><button id="s-rall-bn" onclick="fetch('/report?consent=rejected');document.documentElement.classList.remove('show--consent');document.getElementById('cc--main').remove()">Reject all</button>` +
          `</div></div></body></html>`,
      ),
    );
    // A hand-made banner no platform rule knows.
    site.route(
      '/consent-generic',
      html(
        `<!doctype html><body style="margin:0;background:#fff"><div class="site-cookie-banner" ` +
          `style="position:fixed;left:0;right:0;bottom:0;height:150px;background:rgb(255,0,0)">We use cookies. <button>OK</button></div></body>`,
      ),
    );
    site.route(
      '/three-pages',
      html(
        `<!doctype html><body><h1 style="break-after:page">Alpha page</h1><h1 style="break-after:page">Bravo page</h1><h1>Charlie page</h1>` +
          `<p class="screen">on screen only</p><style>@media print{.screen{display:none}}</style></body>`,
      ),
    );
    pool = testPool(
      { concurrency: 2 },
      {
        extraArgs: [
          '--host-resolver-rules=MAP target.test 127.0.0.1, MAP thirdparty.test 127.0.0.1, MAP code.tidio.co 127.0.0.1, MAP static.hotjar.com 127.0.0.1',
        ],
      },
    );
    await pool.start();
  });

  beforeEach(() => {
    seen = [];
    reports = [];
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it("sends headers, cookies, the user agent and basic auth to the target's site, and none of them to a third party", async () => {
    await shoot({
      url: `${target}/page`,
      headers: { 'X-Tenant': 'acme', Authorization: 'Bearer ignored-when-http-auth-set' },
      cookies: [
        { name: 'session', value: 'abc123' },
        { name: 'pref', value: 'dark', domain: 'target.test', httpOnly: true },
      ],
      user_agent: 'SitelensTest/1.0',
      http_auth: { username: 'ann', password: 's3cret' },
    });
    const onTarget = seen.filter((hit) => hit.host === 'target.test');
    const onThirdParty = seen.filter((hit) => hit.host === 'thirdparty.test');
    expect(onTarget.map((hit) => hit.path).sort()).toEqual(['/app.js', '/page', '/pixel.svg', '/style.css']);
    expect(onThirdParty.map((hit) => hit.path)).toEqual(['/tracker.svg']);
    for (const hit of onTarget) {
      expect(hit.headers['x-tenant']).toBe('acme');
      expect(hit.headers.authorization).toBe(`Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
      expect(hit.headers.cookie).toContain('session=abc123');
      expect(hit.headers.cookie).toContain('pref=dark');
      expect(hit.headers['user-agent']).toBe('SitelensTest/1.0');
    }
    const [tracker] = onThirdParty;
    expect(tracker!.headers['x-tenant']).toBeUndefined();
    expect(tracker!.headers.authorization).toBeUndefined();
    expect(tracker!.headers.cookie).toBeUndefined();
    // The user agent is the browser's, for every site.
    expect(tracker!.headers['user-agent']).toBe('SitelensTest/1.0');
  });

  it('block_resources: blocked types are never requested, the rest load', async () => {
    await shoot({ url: `${target}/page`, block_resources: ['image', 'script'] });
    expect(seen.map((hit) => hit.path).sort()).toEqual(['/page', '/style.css']);
  });

  it("block_chats keeps chat widgets from loading, block_trackers trackers; the page's own scripts load", async () => {
    const hosts = () => seen.map((hit) => `${hit.host}${hit.path}`).sort();
    await shoot({ url: `${target}/widgets` });
    expect(hosts()).toEqual(['code.tidio.co/widget.js', 'static.hotjar.com/analytics.js', 'target.test/app.js']);
    seen = [];
    await shoot({ url: `${target}/widgets`, block_chats: true });
    expect(hosts()).toEqual(['static.hotjar.com/analytics.js', 'target.test/app.js']);
    seen = [];
    await shoot({ url: `${target}/widgets`, block_trackers: true, block_chats: true });
    expect(hosts()).toEqual(['target.test/app.js']);
  });

  it('block_cookies: a known consent platform is answered (rejected) and a generic banner hidden', async () => {
    const bottom = async (url: string, fields: Record<string, unknown> = {}) =>
      decodePng((await shoot({ url, ...fields })).image).at(400, 580);
    expect(near(await bottom(`${target}/consent-known`), RED)).toBe(true);
    expect(near(await bottom(`${target}/consent-generic`), RED)).toBe(true);
    expect(reports).toEqual([]);
    expect(near(await bottom(`${target}/consent-known`, { block_cookies: true }), WHITE)).toBe(true);
    expect(reports).toEqual([{ consent: 'rejected' }]);
    expect(near(await bottom(`${target}/consent-generic`, { block_cookies: true }), WHITE)).toBe(true);
  });

  it('disable_js: the page scripts do not run', async () => {
    const on = decodePng((await shoot({ url: `${target}/red-by-script` })).image);
    expect(near(on.at(400, 300), RED)).toBe(true);
    const off = decodePng((await shoot({ url: `${target}/red-by-script`, disable_js: true })).image);
    expect(near(off.at(400, 300), WHITE)).toBe(true);
  });

  it('print_mode, high_contrast, dark_mode and a user agent together: every override holds', async () => {
    const alone = decodePng((await shoot({ url: `${target}/media` })).image);
    expect(near(alone.at(100, 100), WHITE)).toBe(true);
    expect(near(alone.at(100, 300), WHITE)).toBe(true);
    const together = decodePng(
      (
        await shoot({
          url: `${target}/media`,
          print_mode: true,
          high_contrast: true,
          dark_mode: true,
          user_agent: 'PrintBot/2',
          locale: 'de-DE',
        })
      ).image,
    );
    expect(near(together.at(100, 100), GREEN)).toBe(true);
    expect(near(together.at(100, 300), BLUE)).toBe(true);
  });

  it('click_selector clicks after load and the capture shows the result; no match is SELECTOR_NOT_FOUND', async () => {
    const clicked = decodePng((await shoot({ url: `${target}/click`, click_selector: '#go' })).image);
    expect(near(clicked.at(400, 300), BLUE)).toBe(true);
    const error = await failure(shoot({ url: `${target}/click`, click_selector: '#missing' }));
    expect(error.code).toBe('SELECTOR_NOT_FOUND');
    expect(error.message).toContain('click_selector');
  });

  it('styles and scripts are injected before the capture', async () => {
    const shot = decodePng(
      (
        await shoot({
          url: `${target}/click`,
          styles: 'body { background: rgb(0,255,0) !important; }',
          scripts: "document.getElementById('go').style.visibility = 'hidden';",
        })
      ).image,
    );
    expect(near(shot.at(400, 300), GREEN)).toBe(true);
    expect(near(shot.at(20, 20), GREEN)).toBe(true); // the button is gone
  });

  it("a page's CSP holds for the page, and does not stop what the request injects", async () => {
    // Nothing to inject: the CSP is left in force, so the page's own inline style stays refused.
    const plain = decodePng((await shoot({ url: `${target}/csp` })).image);
    expect(near(plain.at(400, 300), [255, 255, 255])).toBe(true);
    const injected = decodePng(
      (
        await shoot({
          url: `${target}/csp`,
          styles: 'body { background: rgb(0,255,0) !important; }',
          scripts: "document.body.dataset.ran = 'yes'; document.body.style.borderTop = '40px solid rgb(0,0,255)';",
        })
      ).image,
    );
    expect(near(injected.at(400, 300), GREEN)).toBe(true);
    expect(near(injected.at(400, 20), [0, 0, 255])).toBe(true);
  });

  it("with nothing injected, the capture's own steps still work under the page's CSP", async () => {
    const element = await shoot({ url: `${target}/csp`, wait_for_selector: '#ad', click_selector: '#ad', selector: '#ad' });
    // The CSP refuses the page's inline styles too: #ad is laid out as a plain block, one line of
    // text across the body (800 px wide viewport less the default 8 px margins), not 50 x 50.
    expect(element.metadata.width).toBe(784);
    expect(element.metadata.height).toBeGreaterThan(0);
    expect(element.metadata.height).toBeLessThan(50);
    const whole = await shoot({ url: `${target}/csp`, full_page: true });
    expect(whole.metadata.full_page).toBe(true);
    expect(decodePng(whole.image).width).toBe(whole.metadata.width);
  });

  it('selector captures the whole element, taller than the viewport; no match is SELECTOR_NOT_FOUND', async () => {
    const shot = await shoot({ url: `${target}/tall-element`, selector: '#card' });
    const pixels = decodePng(shot.image);
    expect([pixels.width, pixels.height]).toEqual([300, 1500]);
    expect([shot.metadata.width, shot.metadata.height]).toEqual([300, 1500]);
    expect(near(pixels.at(5, 5), GREEN)).toBe(true);
    expect(near(pixels.at(295, 1495), GREEN)).toBe(true);
    const error = await failure(shoot({ url: `${target}/tall-element`, selector: '#nothing' }));
    expect(error.code).toBe('SELECTOR_NOT_FOUND');
  });

  it('clip captures exactly the clip', async () => {
    const shot = await shoot({ url: `${target}/tall-element`, clip: { x: 30, y: 50, width: 120, height: 80 } });
    const pixels = decodePng(shot.image);
    expect([pixels.width, pixels.height]).toEqual([120, 80]);
    expect(near(pixels.at(0, 0), GREEN)).toBe(true);
    expect(near(pixels.at(119, 79), GREEN)).toBe(true);
  });

  it('omit_background leaves the page background transparent', async () => {
    const shot = await shoot({ url: `${target}/transparent`, omit_background: true });
    const png = PNG.sync.read(shot.image);
    const alpha = (x: number, y: number) => png.data[(png.width * y + x) * 4 + 3];
    expect(alpha(50, 50)).toBe(255); // the red square
    expect(alpha(400, 300)).toBe(0); // no background
    const opaque = PNG.sync.read((await shoot({ url: `${target}/transparent` })).image);
    expect(opaque.data[(opaque.width * 300 + 400) * 4 + 3]).toBe(255);
  });

  it('timezone, locale and geolocation are what the page sees', async () => {
    // Geolocation needs a secure context: 127.0.0.1 is one, plain-http target.test is not.
    await shoot({
      url: `${site.origin}/where`,
      timezone: 'Asia/Tokyo',
      locale: 'fr-FR',
      geolocation: { latitude: 48.8566, longitude: 2.3522 },
      wait_until: 'networkidle',
    });
    expect(reports).toEqual(
      expect.arrayContaining([
        { tz: 'Asia/Tokyo', lang: 'fr-FR', hour: '21' },
        { lat: '48.8566', lon: '2.3522' },
      ]),
    );
  });

  it('locale sets Accept-Language', async () => {
    await shoot({ url: `${target}/page`, locale: 'de-DE' });
    const page = seen.find((hit) => hit.path === '/page');
    expect(page!.headers['accept-language']).toBe('de-DE,de;q=0.9');
  });

  it('is_landscape turns a phone on its side; is_mobile and has_touch override the preset', async () => {
    const landscape = await captureScreenshot(pool, request({ url: `${target}/media`, device: 'mobile', is_landscape: true }), options);
    expect([landscape.metadata.width, landscape.metadata.height]).toEqual([1334, 750]);
    await captureScreenshot(pool, request({ url: `${target}/touch`, device: 'mobile' }), options);
    await captureScreenshot(pool, request({ url: `${target}/touch`, device: 'mobile', has_touch: false, is_mobile: false }), options);
    await captureScreenshot(pool, request({ url: `${target}/touch`, ...small, has_touch: true }), options);
    expect(reports.map((report) => report.touch)).toEqual(['true', 'false', 'true']);
    // A mobile browser lays a page without a viewport meta tag out 980 px wide; a desktop one at the window's width.
    const widths = reports.map((report) => Number(report.width));
    expect(widths[0]).toBeGreaterThan(900);
    expect(widths.slice(1)).toEqual([375, 800]);
  });

  it('format pdf: the expected pages, their text, page_count and paper size in metadata', async () => {
    const shot = await shoot({ url: `${target}/three-pages`, format: 'pdf', pdf: { paper: 'letter', margin: { top: '10mm' } } });
    expect(shot.contentType).toBe('application/pdf');
    expect(shot.image.subarray(0, 5).toString()).toBe('%PDF-');
    expect(shot.metadata).toMatchObject({ format: 'pdf', page_count: 3, width: 612, height: 792, file_size: shot.image.length });
    expect(pdfText(shot.image)).toEqual(['Alpha page', 'Bravo page', 'Charlie page']);
    const ranged = await shoot({ url: `${target}/three-pages`, format: 'pdf', pdf: { page_ranges: '2-3', landscape: true } });
    // A4 on its side: 842 x 595 points (Chromium rounds A4 to 11.7 x 8.27 in, so within a point).
    expect(ranged.metadata.page_count).toBe(2);
    expect(Math.abs(ranged.metadata.width - 842)).toBeLessThanOrEqual(1);
    expect(Math.abs(ranged.metadata.height - 595)).toBeLessThanOrEqual(1);
    expect(pdfText(ranged.image)).toEqual(['Bravo page', 'Charlie page']);
  });

  it("html renders the given HTML as the page, its subresources loaded like any page's", async () => {
    const html = `<body style="margin:0;background:rgb(0,255,0)"><img src="${target}/pixel.svg" width="10" height="10"></body>`;
    for (const wait_until of ['load', 'networkidle']) {
      seen = [];
      const shot = await captureScreenshot(pool, request({ html, ...small, wait_until }), options);
      expect(near(decodePng(shot.image).at(400, 300), GREEN)).toBe(true);
      expect(seen.map((hit) => `${hit.host}${hit.path}`)).toEqual(['target.test/pixel.svg']);
    }
  });

  it('image_width / image_height: a thumbnail of the asked size, aspect kept when one is given', async () => {
    const wide = await shoot({ url: `${target}/transparent`, image_width: 200 });
    expect([decodePng(wide.image).width, decodePng(wide.image).height]).toEqual([200, 150]);
    expect([wide.metadata.width, wide.metadata.height]).toEqual([200, 150]);
    const tall = await shoot({ url: `${target}/transparent`, image_height: 60, format: 'jpeg' });
    expect(imageSize(tall.image)).toMatchObject({ width: 80, height: 60, type: 'jpg' });
    const box = await shoot({ url: `${target}/transparent`, image_width: 100, image_height: 100, format: 'webp' });
    expect(imageSize(box.image)).toMatchObject({ width: 100, height: 100, type: 'webp' });
    // Cut from the top-left-anchored page: the red square (100x100 CSS px of 800x600) is at the left edge.
    const boxPng = decodePng((await shoot({ url: `${target}/transparent`, image_width: 100, image_height: 100 })).image);
    expect(near(boxPng.at(2, 2), RED)).toBe(true);
  });

  describe('ignore_https', () => {
    let server: Server;
    let dir: string;
    let httpsOrigin: string;

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'sitelens-tls-'));
      execFileSync('openssl', [
        'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=target.test',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
      ], { stdio: 'ignore' }); // prettier-ignore
      server = createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<body style="margin:0;background:rgb(0,255,0)"></body>'),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      httpsOrigin = `https://target.test:${typeof address === 'object' && address ? address.port : 0}`;
    });

    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    });

    it('a self-signed certificate fails the job, unless ignore_https is set for it', async () => {
      const refused = await failure(shoot({ url: `${httpsOrigin}/` }));
      expect(refused.code).toBe('NAVIGATION_FAILED');
      const shot = decodePng((await shoot({ url: `${httpsOrigin}/`, ignore_https: true })).image);
      expect(near(shot.at(400, 300), GREEN)).toBe(true);
      // Only that job: the next one without the flag is refused again.
      expect((await failure(shoot({ url: `${httpsOrigin}/` }))).code).toBe('NAVIGATION_FAILED');
    });
  });
});
