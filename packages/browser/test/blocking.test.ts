import { UrlBlocked } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { captureScreenshot, renderHtml, type BrowserPool, type UrlGuard } from '../src';
import { decodePng, failure, FIXTURES, near, request, silentLogger, testPool } from './support/helpers';

const WHITE: [number, number, number] = [255, 255, 255];
const RED: [number, number, number] = [255, 0, 0];
const ORANGE: [number, number, number] = [255, 128, 0];
/** A real ad-network host name, answered by the fixture site through Chromium's resolver rules. */
const AD_HOST = 'securepubads.g.doubleclick.net';
const small = { device: 'custom', width: 800, height: 600 } as const;

/** Requests the fixture saw, less the favicon Chromium may or may not ask for. */
function pageHits(site: FixtureSite): string[] {
  return site.hits.filter((hit) => hit !== '/favicon.ico');
}

describe('ad blocking and the page URL guard in the browser', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  const options = { fullPageMaxHeight: 16_384, maxPixels: 50_000_000, logger: silentLogger };

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    // An ad slot the list hides cosmetically (##.ad-slot) and a script from an ad network that paints a box.
    site.route('/ads', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><body style="margin:0;background:#fff">
        <div class="ad-slot" style="position:absolute;left:0;top:0;width:300px;height:250px;background:rgb(255,0,0)"></div>
        <p style="position:absolute;left:0;top:300px">Article text</p>
        <script src="http://${AD_HOST}:${site.port}/tag/js/box.js"></script>
      </body></html>`);
    });
    site.route('/tag/js/box.js', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/javascript' });
      res.end(
        `document.body.insertAdjacentHTML('beforeend', '<div id="network-ad" style="position:absolute;left:400px;top:0;width:300px;height:250px;background:rgb(255,128,0)"></div>');`,
      );
    });
    site.route('/private/page', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>secret</h1>');
    });
    pool = testPool({ concurrency: 2 }, { extraArgs: [`--host-resolver-rules=MAP ${AD_HOST} 127.0.0.1`] });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  /** Refuses any path under /private/, as the web package's rule refuses private addresses. */
  const seen: string[] = [];
  const guard: UrlGuard = async (url) => {
    seen.push(url);
    await new Promise((resolve) => setImmediate(resolve)); // guards are asynchronous (DNS lookups)
    if (new URL(url).pathname.startsWith('/private/')) throw new UrlBlocked(`Blocked by test rule: ${new URL(url).pathname}`);
  };

  it('without block_ads, the ad slot and the ad network box are painted', async () => {
    site.hits.length = 0;
    const pixels = decodePng((await captureScreenshot(pool, request({ url: `${site.origin}/ads`, ...small }), options)).image);
    expect(near(pixels.at(150, 125), RED)).toBe(true);
    expect(near(pixels.at(550, 125), ORANGE)).toBe(true);
    expect(site.hits).toContain('/tag/js/box.js');
  });

  it('with block_ads, the ad network request is never made and the ad slot is hidden', async () => {
    site.hits.length = 0;
    const shot = await captureScreenshot(pool, request({ url: `${site.origin}/ads`, block_ads: true, ...small }), options);
    const pixels = decodePng(shot.image);
    expect(near(pixels.at(150, 125), WHITE)).toBe(true);
    expect(near(pixels.at(550, 125), WHITE)).toBe(true);
    expect(site.hits).toContain('/ads');
    expect(site.hits).not.toContain('/tag/js/box.js');
  });

  it('the guard is asked for the page itself, and a refused page is never requested', async () => {
    seen.length = 0;
    site.hits.length = 0;
    const direct = await failure(captureScreenshot(pool, request({ url: `${site.origin}/private/page` }), { ...options, urlGuard: guard }));
    expect(direct.code).toBe('URL_BLOCKED');
    expect(direct.message).toBe('Blocked by test rule: /private/page');
    expect(seen).toEqual([`${site.origin}/private/page`]);
    expect(pageHits(site)).toEqual([]);

    const allowed = await captureScreenshot(pool, request({ url: `${site.origin}/ads`, block_ads: true, ...small }), {
      ...options,
      urlGuard: guard,
    });
    expect(near(decodePng(allowed.image).at(550, 125), WHITE)).toBe(true);
    expect(seen).toContain(`${site.origin}/ads`);
  });

  it('renderHtml goes through the guard as well', async () => {
    const error = await failure(renderHtml(pool, `${site.origin}/private/page`, { timeoutMs: 5_000, urlGuard: guard }));
    expect(error.code).toBe('URL_BLOCKED');
  });
});
