import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { renderHtml, type BrowserPool } from '../src';
import { failure, FIXTURES, testPool } from './support/helpers';

describe('renderHtml', () => {
  let site: FixtureSite;
  let pool: BrowserPool;

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    site.route('/api/items', (_req, res) => {
      // Late data, as a client-side app would fetch it after load.
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('["alpha","beta","gamma"]'), 300);
    });
    site.route('/moved', (_req, res) => void res.writeHead(301, { location: '/js-only.html' }).end());
    site.route('/hang', () => undefined);
    site.route('/with-image', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><img src="/picture.png"><p>text</p></body></html>');
    });
    pool = testPool({ concurrency: 2 });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('returns the DOM after scripts ran and their requests settled, with status and final URL', async () => {
    const page = await renderHtml(pool, `${site.origin}/moved`, { timeoutMs: 10_000 });
    expect(page.status).toBe(200);
    expect(page.finalUrl).toBe(`${site.origin}/js-only.html`);
    expect(page.html).toContain('<h1>Rendered by script</h1>');
    expect(page.html).toContain('<li>gamma</li>');
  });

  it('reports the status of an error page instead of failing', async () => {
    const page = await renderHtml(pool, `${site.origin}/nothing-here`, { timeoutMs: 10_000 });
    expect(page.status).toBe(404);
    expect(page.html).toContain('Not found');
  });

  it('does not fetch images, media or fonts', async () => {
    site.hits.length = 0;
    const page = await renderHtml(pool, `${site.origin}/with-image`, { timeoutMs: 10_000 });
    expect(page.html).toContain('<img src="/picture.png">');
    expect(site.hits).toContain('/with-image');
    expect(site.hits).not.toContain('/picture.png');
  });

  it('fails NAVIGATION_FAILED for an unreachable host and TIMEOUT for a page that never answers', async () => {
    const closed = await startFixtureSite();
    await closed.close();
    const refused = await failure(renderHtml(pool, `${closed.origin}/`, { timeoutMs: 5_000 }));
    expect(refused.code).toBe('NAVIGATION_FAILED');
    expect(refused.message).toMatch(/net::ERR_CONNECTION_REFUSED$/);

    // /hang never answers: only the 1.5 s render timeout ends this, so TIMEOUT is the proof.
    const hung = await failure(renderHtml(pool, `${site.origin}/hang`, { timeoutMs: 1_500 }));
    expect(hung.code).toBe('TIMEOUT');
  });
});
