/**
 * POST /v1/map through the real gateway and a parse worker in this process, against a generated
 * 2,000-page site: a sitemap index (robots.txt names it) with a plain and a gzipped child listing
 * 1,500 pages, and 500 pages only reachable by links. Every page is listed, search ranks, patterns
 * and sitemap modes narrow the list, robots.txt is obeyed.
 */
import { gzipSync } from 'node:zlib';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { postJson } from '@sitelens/testkit/test-gateway';
import { startServiceStack, type ServiceStack } from './support/service-stack';

const PAGES = 2_000;
const LISTED = 1_500;

describe('POST /v1/map', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  const page = (n: number) => `${site.origin}/p/${n}`;
  const map = (body: Record<string, unknown>) => postJson(`${stack.origin}/v1/map`, { url: `${site.origin}/`, ...body });
  const all = () => [
    `${site.origin}/`,
    `${site.origin}/more`,
    `${site.origin}/pricing`,
    ...Array.from({ length: PAGES }, (_, n) => page(n)),
  ];

  beforeAll(async () => {
    site = await startFixtureSite();
    const html = (title: string, body: string) => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
    const send =
      (body: string, type = 'text/html') =>
      (_req: unknown, res: import('node:http').ServerResponse) =>
        void res.writeHead(200, { 'content-type': type }).end(body);
    site.route(
      '/',
      send(
        html('Home', `<a href="/p/0">Start</a> <a href="/more">More</a> <a href="/pricing">Pricing</a> <a href="/private/x">Private</a>`),
      ),
    );
    site.route('/pricing', send(html('Plans and prices', '<p>Prices</p>')));
    // The 500 pages no sitemap lists, two hops from the home page.
    site.route(
      '/more',
      send(html('More', Array.from({ length: PAGES - LISTED }, (_, i) => `<a href="/p/${LISTED + i}">${LISTED + i}</a>`).join(' '))),
    );
    for (let n = 0; n < PAGES; n++) {
      const title = n === 42 ? 'Pricing FAQ' : `Page ${n}`;
      site.route(
        `/p/${n}`,
        send(html(title, `<p>Page ${n}</p><a href="/p/${(n + 1) % PAGES}">next</a> <a href="https://elsewhere.example/${n}">out</a>`)),
      );
    }
    const urlset = (from: number, to: number) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
        { length: to - from },
        (_, i) => `<url><loc>ORIGIN/p/${from + i}</loc></url>`,
      ).join('')}</urlset>`;
    // Routes are registered before the origin is known to them: ORIGIN is filled in per request.
    const withOrigin = (text: string) => text.replaceAll('ORIGIN', site.origin);
    site.route(
      '/robots.txt',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(withOrigin(`User-agent: *\nDisallow: /private\nSitemap: ORIGIN/sitemap-index.xml\n`)),
    );
    site.route(
      '/sitemap-index.xml',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            withOrigin(
              '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
                '<sitemap><loc>ORIGIN/sitemap-1.xml</loc></sitemap><sitemap><loc>ORIGIN/sitemap-2.xml.gz</loc></sitemap></sitemapindex>',
            ),
          ),
    );
    site.route(
      '/sitemap-1.xml',
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(withOrigin(urlset(0, 800))),
    );
    site.route(
      '/sitemap-2.xml.gz',
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(withOrigin(urlset(800, LISTED)))),
    );
    stack = await startServiceStack();
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  it('lists every page: sitemap index, gzipped child, pages only links reach; never robots-disallowed or off-site ones', async () => {
    const response = await map({ limit: 5_000 });
    expect(response.status).toBe(200);
    const links = response.json.links as string[];
    expect(new Set(links).size).toBe(links.length);
    expect([...links].sort()).toEqual(all().sort());
    expect(response.json).toMatchObject({ success: true, url: `${site.origin}/`, total: all().length });
    expect(links[0]).toBe(`${site.origin}/`);
  });

  it('cuts at limit and says how many it found; search ranks matching paths and titles first', async () => {
    const cut = await map({ limit: 10, sitemap: 'only' });
    expect(cut.json.links).toHaveLength(10);
    expect(cut.json.total).toBe(LISTED);

    // Without search, the first `limit` found are the answer: the walk stops there.
    const before = site.hits.length;
    const quick = await map({ limit: 10, sitemap: 'skip' });
    expect(quick.json.links).toHaveLength(10);
    expect(site.hits.length - before).toBeLessThan(30);

    const searched = await map({ limit: 3, search: 'pricing' });
    // The path /pricing (path and title) first, then /p/42 (title "Pricing FAQ").
    expect(searched.json.links).toEqual([`${site.origin}/pricing`, page(42), expect.any(String)]);
  });

  it('sitemap only / skip, and include / exclude patterns', async () => {
    const only = await map({ limit: 5_000, sitemap: 'only' });
    expect([...(only.json.links as string[])].sort()).toEqual(Array.from({ length: LISTED }, (_, n) => page(n)).sort());

    const skip = await map({ limit: 5_000, sitemap: 'skip' });
    expect([...(skip.json.links as string[])].sort()).toEqual(all().sort());

    const patterned = await map({ limit: 5_000, include_patterns: ['/p/1*'], exclude_patterns: ['/p/1?'] });
    const links = patterned.json.links as string[];
    expect(links).toContain(page(100));
    expect(links).toContain(page(1999));
    expect(links).not.toContain(page(15));
    expect(links).not.toContain(page(200));
  });

  it.each([
    ['a limit over 10,000', { limit: 10_001 }, 'limit'],
    ['an unknown sitemap mode', { sitemap: 'sometimes' }, 'sitemap'],
    ['a search that is not a string', { search: 5 }, 'search'],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const response = await map(body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field });
  });
});
