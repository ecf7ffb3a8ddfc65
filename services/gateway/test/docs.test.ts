import puppeteer, { type Browser } from 'puppeteer-core';
import { chromePath } from '@sitelens/testkit';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

describe('GET /docs', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: 'sk_test_docs:free' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('serves an HTML page that loads Swagger UI from this origin and renders /openapi.json', async () => {
    const response = await fetch(`${gw.origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await response.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js']),
    );
    // Nothing from another origin, and no inline script.
    for (const source of sources) expect(source.startsWith('/')).toBe(true);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const source of sources) {
      const asset = await fetch(`${gw.origin}${source}`);
      expect([source, asset.status]).toEqual([source, 200]);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${gw.origin}/docs/assets/init.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
  });

  it('serves only the files the page needs', async () => {
    for (const name of ['index.html', 'package.json', 'swagger-initializer.js', '..%2Fpackage.json', 'oauth2-redirect.html']) {
      const response = await fetch(`${gw.origin}/docs/assets/${name}`);
      expect([name, response.status]).toEqual([name, 404]);
    }
  });

  describe('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await puppeteer.launch({ executablePath: chromePath(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('renders the operations of the API under its Content-Security-Policy', async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
      await page.goto(`${gw.origin}/docs`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock', { timeout: 15_000 });
      const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path')));
      expect(paths).toEqual(expect.arrayContaining(['/v1/screenshots', '/v1/health']));
      expect(problems).toEqual([]);
      await page.close();
    });
  });
});
