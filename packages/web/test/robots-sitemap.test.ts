import { startFixtureSite, type FixtureSite, startBlogSite } from '@sitelens/testkit';
import { createSafeFetcher, type SafeFetch, type SafeFetcher } from '../src/safe-fetch';
import { RobotsCache, parseRobots } from '../src/robots';
import { MAX_SITEMAP_BYTES, discoverFromSitemaps, parseSitemap } from '../src/sitemap';

describe('parseRobots', () => {
  const robots = `
User-agent: *
Disallow: /private/
Allow: /private/open.html
Crawl-delay: 2

User-agent: Sitelens
Disallow: /no-sitelens/
Crawl-delay: 0.5

Sitemap: https://site.example/sitemap.xml
Sitemap: /relative-sitemap.xml
`;

  it('applies the group for our user agent, with its crawl-delay', () => {
    const rules = parseRobots('https://site.example/robots.txt', robots);
    expect(rules.isAllowed('https://site.example/no-sitelens/page')).toBe(false);
    // Our own group replaces the * group entirely.
    expect(rules.isAllowed('https://site.example/private/x')).toBe(true);
    expect(rules.crawlDelayMs).toBe(500);
  });

  it('applies the * group to other agents', () => {
    const rules = parseRobots('https://site.example/robots.txt', robots, 'OtherBot');
    expect(rules.isAllowed('https://site.example/private/x')).toBe(false);
    expect(rules.isAllowed('https://site.example/private/open.html')).toBe(true);
    expect(rules.crawlDelayMs).toBe(2000);
  });

  it('lists sitemaps as absolute URLs', () => {
    expect(parseRobots('https://site.example/robots.txt', robots).sitemaps).toEqual([
      'https://site.example/sitemap.xml',
      'https://site.example/relative-sitemap.xml',
    ]);
  });

  it('allows everything for an empty file', () => {
    const rules = parseRobots('https://site.example/robots.txt', '');
    expect(rules.isAllowed('https://site.example/anything')).toBe(true);
    expect(rules.crawlDelayMs).toBeUndefined();
  });
});

describe('RobotsCache', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;
  let robotsBody = 'User-agent: *\nDisallow: /secret\n';

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/robots.txt', (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(robotsBody));
    fetcher = createSafeFetcher({ allowPrivate: true });
  });
  afterAll(async () => {
    await fetcher.close();
    await site.close();
  });

  it('fetches robots.txt once per origin, even for concurrent lookups', async () => {
    const cache = new RobotsCache({ fetch: fetcher.fetch });
    const answers = await Promise.all([
      cache.isAllowed(`${site.origin}/secret/a`),
      cache.isAllowed(`${site.origin}/public`),
      cache.isAllowed(`${site.origin}/secret`),
    ]);
    expect(answers).toEqual([false, true, false]);
    robotsBody = 'User-agent: *\nDisallow: /\n';
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
    expect(site.hits.filter((p) => p === '/robots.txt')).toHaveLength(1);
  });

  it('fetches again after the entry expires', async () => {
    const cache = new RobotsCache({ fetch: fetcher.fetch, ttlMs: 0 });
    robotsBody = 'User-agent: *\nDisallow: /\n';
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(false);
    robotsBody = '';
    expect(await cache.isAllowed(`${site.origin}/public`)).toBe(true);
  });

  const answering =
    (status: number): SafeFetch =>
    async (url) => ({ url, status, headers: {}, contentType: 'text/plain', body: 'User-agent: *\nDisallow: /', redirects: [] });

  it('allows everything when robots.txt is missing (4xx)', async () => {
    expect(await new RobotsCache({ fetch: answering(404) }).isAllowed('https://a.example/x')).toBe(true);
    expect(await new RobotsCache({ fetch: answering(403) }).isAllowed('https://a.example/x')).toBe(true);
  });

  it('disallows everything, with the reason, when robots.txt is unreachable (5xx, network)', async () => {
    const rules = await new RobotsCache({ fetch: answering(503) }).rulesFor('https://a.example/x');
    expect(rules.isAllowed('https://a.example/x')).toBe(false);
    expect(rules.unavailable?.message).toContain('answered HTTP 503');
    const failing: SafeFetch = async () => {
      throw new Error('socket hang up');
    };
    const down = await new RobotsCache({ fetch: failing }).rulesFor('https://b.example/x');
    expect(down.isAllowed('https://b.example/x')).toBe(false);
    expect(down.unavailable?.code).toBe('UPSTREAM_ERROR');
  });
});

describe('parseSitemap', () => {
  it('reads a url set, decoding entities and CDATA', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>https://s.example/a?x=1&amp;y=2</loc></url>
      <url><loc><![CDATA[https://s.example/b]]></loc><lastmod>2024-01-01</lastmod></url>
      <url><loc> /relative </loc></url>
      <url><loc>mailto:someone@s.example</loc></url>
    </urlset>`;
    expect(parseSitemap(xml, 'https://s.example/sitemap.xml')).toEqual({
      urls: ['https://s.example/a?x=1&y=2', 'https://s.example/b', 'https://s.example/relative'],
      sitemaps: [],
    });
  });

  it('reads a sitemap index, with namespace prefixes', () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sm:sitemap><sm:loc>https://s.example/one.xml</sm:loc></sm:sitemap>
      <sm:sitemap><sm:loc>https://s.example/two.xml</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(parseSitemap(xml, 'https://s.example/sitemap.xml')).toEqual({
      urls: [],
      sitemaps: ['https://s.example/one.xml', 'https://s.example/two.xml'],
    });
  });

  it('reads a 2 MB file of unclosed <url> tags in one linear pass', () => {
    // The regex reader before took time in the square of the size: 6-9 s for 500 KB.
    const bomb = `<urlset><url><loc>https://s.example/first</loc></url>${'<url>'.repeat(400_000)}<loc>https://s.example/last</loc>`;
    const started = process.hrtime.bigint();
    expect(parseSitemap(bomb, 'https://s.example/sitemap.xml').urls).toEqual(['https://s.example/first', 'https://s.example/last']);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(10_000);
  });

  it('stops at maxUrls entries, in XML and text, and ignores entity definitions', () => {
    const xml = `<urlset>${Array.from({ length: 100 }, (_, i) => `<url><loc>https://s.example/${i}</loc></url>`).join('')}</urlset>`;
    expect(parseSitemap(xml, 'https://s.example/s.xml', 10).urls).toHaveLength(10);
    const text = Array.from({ length: 100 }, (_, i) => `https://s.example/${i}`).join('\n');
    expect(parseSitemap(text, 'https://s.example/s.txt', 10).urls).toHaveLength(10);
    const laughs = `<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>
      <urlset><url><loc>https://s.example/&b;</loc></url><url><loc>https://s.example/ok</loc></url></urlset>`;
    expect(parseSitemap(laughs, 'https://s.example/s.xml').urls).toEqual(['https://s.example/&b;', 'https://s.example/ok']);
  });

  it('reads malformed XML as far as it goes', () => {
    const xml = 'junk <urlset><url><loc>https://s.example/1</loc><url><loc>https://s.example/2</loc></urlset></url><<<';
    expect(parseSitemap(xml, 'https://s.example/s.xml').urls).toEqual(['https://s.example/1', 'https://s.example/2']);
  });

  it('reads a text sitemap', () => {
    expect(parseSitemap('https://s.example/a\n\nnot a url\nhttps://s.example/b\n', 'https://s.example/s.txt').urls).toEqual([
      'https://s.example/a',
      'https://s.example/b',
    ]);
  });
});

describe('discoverFromSitemaps', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;

  beforeAll(async () => {
    site = await startBlogSite();
    site.route(
      '/loop.xml',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<sitemapindex><sitemap><loc>${site.origin}/loop.xml</loc></sitemap><sitemap><loc>${site.origin}/gone.xml</loc></sitemap></sitemapindex>`,
          ),
    );
    fetcher = createSafeFetcher({ allowPrivate: true });
  });
  afterAll(async () => {
    await fetcher.close();
    await site.close();
  });

  it('follows the blog sitemap index to its url sets, in file order', async () => {
    expect(await discoverFromSitemaps([`${site.origin}/sitemap.xml`], { fetch: fetcher.fetch })).toEqual([
      `${site.origin}/`,
      `${site.origin}/posts/first-post.html`,
      `${site.origin}/posts/second-post.html`,
      `${site.origin}/posts/third-post.html`,
      `${site.origin}/posts/fourth-post.html`,
      `${site.origin}/private/drafts.html`,
    ]);
  });

  it('stops at maxUrls', async () => {
    const urls = await discoverFromSitemaps([`${site.origin}/sitemap.xml`], { fetch: fetcher.fetch, maxUrls: 2 });
    expect(urls).toEqual([`${site.origin}/`, `${site.origin}/posts/first-post.html`]);
  });

  it('skips a sitemap over MAX_SITEMAP_BYTES and goes on with the next', async () => {
    const huge = `<urlset>${'<url><loc>https://s.example/x</loc></url>'.repeat(Math.ceil(MAX_SITEMAP_BYTES / 40))}</urlset>`;
    site.route('/huge.xml', (_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(huge));
    site.route(
      '/small.xml',
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset><url><loc>${site.origin}/ok</loc></url></urlset>`),
    );
    const urls = await discoverFromSitemaps([`${site.origin}/huge.xml`, `${site.origin}/small.xml`], { fetch: fetcher.fetch });
    expect(urls).toEqual([`${site.origin}/ok`]);
  });

  it('survives loops and missing sitemaps', async () => {
    const before = site.hits.length;
    expect(await discoverFromSitemaps([`${site.origin}/loop.xml`], { fetch: fetcher.fetch })).toEqual([]);
    expect(site.hits.slice(before)).toEqual(['/loop.xml', '/gone.xml']);
  });
});
