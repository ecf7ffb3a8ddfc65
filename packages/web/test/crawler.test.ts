import type { ServerResponse } from 'node:http';
import { UrlBlocked, type Clock } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite, pageHits, startBlogSite } from '@sitelens/testkit';
import { crawl, type CrawlOptions, type CrawlStatistics } from '../src/crawler';
import { createSafeFetcher, type SafeFetcher } from '../src/safe-fetch';
import type { Resolver } from '@sitelens/egress';
import type { WebDeps } from '../src/deps';

const page = (res: ServerResponse, title: string, links: string[] = [], status = 200) =>
  void res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Body of ${title}.</p>` +
        links.map((href) => `<a href="${href}">${href}</a>`).join(' ') +
        '</main></body></html>',
    );

describe('crawling the fixture blog', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;
  let deps: WebDeps;
  const run = (options: Partial<CrawlOptions> = {}) => crawl({ url: `${site.origin}/`, ...options }, deps);
  const paths = (data: Record<string, unknown>) => Object.keys(data).map((url) => url.slice(site.origin.length));

  beforeEach(async () => {
    site = await startBlogSite();
    fetcher = createSafeFetcher({ allowPrivate: true });
    deps = { allowPrivate: true, fetchImpl: fetcher.fetch };
  });
  afterEach(async () => {
    await fetcher.close();
    await site.close();
  });

  it('returns exactly the index and its four posts, never the robots-disallowed page', async () => {
    const result = await run();
    expect(result.url).toBe(`${site.origin}/`);
    expect(paths(result.crawl_data)).toEqual([
      '/',
      '/posts/first-post.html',
      '/posts/second-post.html',
      '/posts/third-post.html',
      '/posts/fourth-post.html',
    ]);
    expect(result.error_data).toEqual({});
    expect(result.statistics).toEqual({ total_pages: 5, successful_pages: 5, failed_pages: 0 });
    // Drafts were never fetched, nor the off-site, ftp, mailto and image links.
    expect(pageHits(site).sort()).toEqual(
      ['/', '/posts/first-post.html', '/posts/fourth-post.html', '/posts/second-post.html', '/posts/third-post.html'].sort(),
    );

    const first = result.crawl_data[`${site.origin}/posts/first-post.html`]!;
    expect(first.metadata).toEqual({ title: 'First post - Field Notes', status_code: 200 });
    expect(first.markdown).toBe(
      '# First post\n\nThe first entry of the blog: why we bought a van and left the city.\n\n' +
        'Written on the road, somewhere between one campsite and the next, with a flask of tea.\n\n' +
        `Next: [the second post](${site.origin}/posts/second-post.html).`,
    );
    expect(first.links).toEqual([`${site.origin}/`, `${site.origin}/posts/second-post.html`]);
    expect(first.html).toBeUndefined();
  });

  it.each([
    [0, ['/']],
    [1, ['/', '/posts/first-post.html', '/posts/second-post.html']],
    [2, ['/', '/posts/first-post.html', '/posts/second-post.html', '/posts/third-post.html']],
    [3, ['/', '/posts/first-post.html', '/posts/second-post.html', '/posts/third-post.html', '/posts/fourth-post.html']],
  ])('follows links to depth %i (sitemap off)', async (depth, expected) => {
    const result = await run({ depth, useSitemap: false });
    expect(paths(result.crawl_data)).toEqual(expected);
    expect(pageHits(site)).toHaveLength(expected.length);
  });

  it('uses the sitemap to discover pages no link reaches at depth 1', async () => {
    const result = await run({ depth: 1 });
    expect(paths(result.crawl_data)).toContain('/posts/fourth-post.html');
    expect(site.hits).toEqual(expect.arrayContaining(['/robots.txt', '/sitemap.xml', '/sitemap-posts.xml']));
  });

  it.each([
    [1, ['/']],
    [3, ['/', '/posts/first-post.html', '/posts/second-post.html']],
  ])('stops at limit %i, the start page counted', async (limit, expected) => {
    const result = await run({ limit });
    expect(paths(result.crawl_data)).toEqual(expected);
    expect(result.statistics.total_pages).toBe(limit);
    expect(pageHits(site)).toHaveLength(limit);
  });

  it('follows only pages whose path matches the patterns', async () => {
    const result = await run({ patterns: ['/posts/first-*', 'posts/fourth-post.html'] });
    expect(paths(result.crawl_data)).toEqual(['/', '/posts/first-post.html', '/posts/fourth-post.html']);
  });

  it('follows no page whose path matches an exclude pattern, which wins over patterns', async () => {
    const all = paths((await run({})).crawl_data);
    expect(all).toEqual(expect.arrayContaining(['/posts/first-post.html']));
    const result = await run({ excludePatterns: ['/posts/first-*'] });
    expect(paths(result.crawl_data)).toEqual(all.filter((path) => !path.startsWith('/posts/first-')));
    const both = await run({ patterns: ['/posts/*'], excludePatterns: ['posts/first-*'] });
    expect(paths(both.crawl_data)).toEqual(
      all.filter((path) => path === '/' || (path.startsWith('/posts/') && !path.startsWith('/posts/first-'))),
    );
  });

  it('gives text content and page HTML when asked', async () => {
    const result = await run({ depth: 0, format: 'text', includeHtml: true });
    const home = result.crawl_data[`${site.origin}/`]!;
    expect(home.markdown).toBe(
      'Field Notes\n\nA travel blog about a year on the road in a camper van, one post at a time.\n\n' +
        "First post\nFirst post comments\nSecond post\nDrafts\nPhoto archive\nA friend's blog\nVan photo",
    );
    expect(home.html).toContain('<title>Field Notes</title>');
  });

  it('reports a start page robots.txt disallows instead of fetching it', async () => {
    const result = await crawl({ url: `${site.origin}/private/drafts.html` }, deps);
    expect(result.crawl_data).toEqual({});
    expect(result.error_data).toEqual({
      [`${site.origin}/private/drafts.html`]: `robots.txt disallows ${site.origin}/private/drafts.html`,
    });
    expect(pageHits(site)).toEqual([]);
  });

  it('reports progress as pages finish and hands each page to onPage', async () => {
    const progress: CrawlStatistics[] = [];
    const seen: Array<[string, number]> = [];
    const result = await run({
      onProgress: (s) => progress.push(s),
      onPage: ({ url, depth, page: p }) => {
        expect(p.markdown).toContain('#');
        seen.push([url.slice(site.origin.length), depth]);
      },
    });
    expect(progress[0]).toEqual({ total_pages: 0, successful_pages: 0, failed_pages: 0 });
    expect(progress.at(-1)).toEqual(result.statistics);
    for (let i = 1; i < progress.length; i += 1) {
      expect(progress[i]!.successful_pages).toBeGreaterThanOrEqual(progress[i - 1]!.successful_pages);
    }
    expect(seen[0]).toEqual(['/', 0]);
    expect(seen.slice(1).map(([, depth]) => depth)).toEqual([1, 1, 1, 1]);
  });

  it('stops when aborted and rejects with the reason', async () => {
    const controller = new AbortController();
    const pending = run({
      useSitemap: false,
      depth: 3,
      signal: controller.signal,
      onPage: () => controller.abort(new Error('crawl cancelled')),
    });
    await expect(pending).rejects.toThrow('crawl cancelled');
    expect(pageHits(site)).toEqual(['/']);
  });

  it('refuses to start on a private address in hosted mode', async () => {
    await expect(crawl({ url: `${site.origin}/` }, { allowPrivate: false })).rejects.toBeInstanceOf(UrlBlocked);
    expect(site.hits).toEqual([]);
  });
});

describe('crawler behaviour on programmed sites', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;
  let deps: WebDeps;

  beforeEach(async () => {
    site = await startFixtureSite();
    fetcher = createSafeFetcher({ allowPrivate: true });
    deps = { allowPrivate: true, fetchImpl: fetcher.fetch };
  });
  afterEach(async () => {
    await fetcher.close();
    await site.close();
  });

  it('collects per-page failures in error_data and keeps going', async () => {
    site.route('/err/start', (_req, res) => page(res, 'Start', ['/err/missing', '/err/boom', '/err/slow', '/err/ok']));
    site.route('/err/boom', (_req, res) => page(res, 'Boom', [], 500));
    site.route('/err/ok', (_req, res) => page(res, 'Fine'));
    site.route('/err/slow', (_req, res) => {
      const timer = setTimeout(() => page(res, 'Late'), 2000);
      res.on('close', () => clearTimeout(timer));
    });
    const result = await crawl({ url: `${site.origin}/err/start`, pageTimeoutMs: 250, useSitemap: false }, deps);
    expect(Object.keys(result.crawl_data)).toEqual([`${site.origin}/err/start`, `${site.origin}/err/ok`]);
    expect(result.error_data).toEqual({
      [`${site.origin}/err/missing`]: `Page not found (HTTP 404): ${site.origin}/err/missing`,
      [`${site.origin}/err/boom`]: `The site answered HTTP 500 for ${site.origin}/err/boom`,
      [`${site.origin}/err/slow`]: `Timed out after 250 ms fetching ${site.origin}/err/slow`,
    });
    expect(result.statistics).toEqual({ total_pages: 5, successful_pages: 2, failed_pages: 3 });
  });

  it('normalises URLs so variants of one page are crawled once, and gives back the slot of a redirect to a known page', async () => {
    site.route('/n/start', (_req, res) =>
      page(res, 'Start', ['/n/a?utm_source=x', '/n/a#frag', '/n/a', '/n/b?z=1&y=2', '/n/b?y=2&z=1', '/n/alias', '/n/c']),
    );
    site.route('/n/a', (_req, res) => page(res, 'A'));
    site.route('/n/b', (_req, res) => page(res, 'B'));
    site.route('/n/c', (_req, res) => page(res, 'C'));
    site.route('/n/alias', (_req, res) => void res.writeHead(301, { location: '/n/a' }).end());
    const result = await crawl({ url: `${site.origin}/n/start`, limit: 4, useSitemap: false }, deps);
    expect(Object.keys(result.crawl_data)).toEqual([
      `${site.origin}/n/start`,
      `${site.origin}/n/a`,
      `${site.origin}/n/b?y=2&z=1`,
      `${site.origin}/n/c`,
    ]);
    expect(site.hits.filter((p) => p === '/n/a')).toHaveLength(2); // once directly, once behind /n/alias
    expect(result.statistics).toEqual({ total_pages: 4, successful_pages: 4, failed_pages: 0 });
  });

  it('honours crawl-delay: one request at a time, spaced by the delay', async () => {
    // A virtual clock: sleeping moves it on at once, so the times below are the scheduled starts,
    // whatever the machine's load does to when a request actually arrives.
    let now = 1_000_000;
    const clock: Clock = {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    };
    const times: number[] = [];
    let active = 0;
    let peak = 0;
    const handle =
      (title: string, links: string[] = []) =>
      (_req: unknown, res: ServerResponse) => {
        times.push(now);
        active += 1;
        peak = Math.max(peak, active);
        res.on('finish', () => (active -= 1));
        page(res, title, links);
      };
    site.route('/robots.txt', (_req, res) => void res.writeHead(200).end('User-agent: *\nCrawl-delay: 0.3\n'));
    site.route('/d/start', handle('Start', ['/d/1', '/d/2', '/d/3']));
    for (const n of [1, 2, 3]) site.route(`/d/${n}`, handle(`Page ${n}`));
    const result = await crawl(
      { url: `${site.origin}/d/start`, useSitemap: false, concurrency: 4, perHostConcurrency: 4 },
      { ...deps, clock },
    );
    expect(result.statistics.successful_pages).toBe(4);
    expect(times).toEqual([1_000_000, 1_000_300, 1_000_600, 1_000_900]);
    expect(peak).toBe(1);
  });

  it('keeps at most perHostConcurrency requests in flight on one host', async () => {
    let active = 0;
    let peak = 0;
    const slowPage =
      (title: string, links: string[] = []) =>
      (_req: unknown, res: ServerResponse) => {
        active += 1;
        peak = Math.max(peak, active);
        setTimeout(() => {
          active -= 1;
          page(res, title, links);
        }, 80);
      };
    const children = Array.from({ length: 8 }, (_, i) => `/c/${i}`);
    site.route('/c/start', slowPage('Start', children));
    for (const child of children) site.route(child, slowPage(child));
    const result = await crawl({ url: `${site.origin}/c/start`, useSitemap: false, concurrency: 8, perHostConcurrency: 2 }, deps);
    expect(result.statistics.successful_pages).toBe(9);
    expect(peak).toBe(2);
  });

  it('stays on the start host unless subdomains are included, and never follows other hosts', async () => {
    const port = site.port;
    const resolve: Resolver = async (host) => {
      if (host.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    site.route('/s/start', (_req, res) =>
      page(res, 'Start', [
        '/s/local',
        `http://docs.site.test:${port}/s/guide`,
        `http://other.test:${port}/s/elsewhere`,
        `http://notsite.test:${port}/s/lookalike`,
        `ftp://docs.site.test/s/file`,
      ]),
    );
    for (const p of ['/s/local', '/s/guide', '/s/elsewhere', '/s/lookalike']) site.route(p, (_req, res) => page(res, p));
    const subDeps: WebDeps = { allowPrivate: true, fetcher: { resolve } };
    const url = `http://www.site.test:${port}/s/start`;

    const sameHost = await crawl({ url, useSitemap: false }, subDeps);
    expect(Object.keys(sameHost.crawl_data)).toEqual([url, `http://www.site.test:${port}/s/local`]);

    const withSubdomains = await crawl({ url, useSitemap: false, includeSubdomains: true }, subDeps);
    expect(Object.keys(withSubdomains.crawl_data)).toEqual([
      url,
      `http://www.site.test:${port}/s/local`,
      `http://docs.site.test:${port}/s/guide`,
    ]);
    expect(site.hits).not.toContain('/s/elsewhere');
    expect(site.hits).not.toContain('/s/lookalike');
  });
});

describe('byte caps', () => {
  const body = (title: string, words: number) =>
    `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${'wörd '.repeat(words)}</p>` +
    `<p><a href="/a">a</a> <a href="/b">b</a></p></main></body></html>`;
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite();
    const page = (html: string) => (_req: unknown, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    };
    site.route('/', page(body('Home', 10)));
    site.route('/a', page(body('Big', 2_000)));
    site.route('/b', page(body('Small', 10)));
  });
  afterAll(() => site.close());
  const options = { depth: 1, useSitemap: false, respectRobots: false, includeHtml: true, concurrency: 1 };

  it('cuts a page past the per-page cap at a character boundary and says so', async () => {
    const whole = await crawl({ url: `${site.origin}/`, ...options }, { allowPrivate: true });
    const result = await crawl({ url: `${site.origin}/`, ...options, maxPageBytes: 4_000 }, { allowPrivate: true });
    const big = result.crawl_data[`${site.origin}/a`]!;
    expect(big.truncated).toBe(true);
    expect(Buffer.byteLength(big.markdown) + Buffer.byteLength(big.html ?? '')).toBeLessThanOrEqual(4_000);
    // A prefix of the whole page, cut where a whole character (ö is two bytes) still fits.
    expect(whole.crawl_data[`${site.origin}/a`]!.markdown.startsWith(big.markdown)).toBe(true);
    expect(Buffer.byteLength(big.markdown)).toBeGreaterThanOrEqual(3_999);
    expect(big.markdown).not.toContain('\uFFFD');
    expect(big.html).toBe('');
    expect(result.crawl_data[`${site.origin}/b`]!.truncated).toBeUndefined();
    expect(result.crawl_data[`${site.origin}/b`]!.html).toContain('<title>Small</title>');
    expect(result).toMatchObject({ truncated: true, note: expect.stringContaining('a page keeps at most 4000 bytes') });
  });

  it('stops keeping bodies once the crawl reaches its cap; statistics still count every page', async () => {
    const result = await crawl({ url: `${site.origin}/`, ...options, maxResultBytes: 6_000 }, { allowPrivate: true });
    const sizes = Object.values(result.crawl_data).map((p) => Buffer.byteLength(p.markdown) + Buffer.byteLength(p.html ?? ''));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(6_000);
    expect(result.crawl_data[`${site.origin}/`]!.truncated).toBeUndefined();
    expect(result.crawl_data[`${site.origin}/a`]!.truncated).toBe(true);
    expect(result.crawl_data[`${site.origin}/b`]!.truncated).toBe(true);
    expect(result.statistics).toEqual({ total_pages: 3, successful_pages: 3, failed_pages: 0 });
    expect(result.note).toContain("a crawl's result keeps at most 6000 bytes");
  });

  it('keeps everything, with no truncation fields, under the caps', async () => {
    const result = await crawl(
      { url: `${site.origin}/`, ...options, maxPageBytes: 1_000_000, maxResultBytes: 10_000_000 },
      { allowPrivate: true },
    );
    expect(result.truncated).toBeUndefined();
    expect(result.note).toBeUndefined();
    expect(Object.values(result.crawl_data).every((p) => p.truncated === undefined)).toBe(true);
  });
});
