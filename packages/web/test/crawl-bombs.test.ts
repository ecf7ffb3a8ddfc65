import type { ServerResponse } from 'node:http';
import { startFixtureSite, type FixtureSite, startBlogSite } from '@sitelens/testkit';
import { crawl } from '../src/crawler';
import { createSafeFetcher, type SafeFetcher } from '../src/safe-fetch';
import type { WebDeps } from '../src/deps';

const html = (res: ServerResponse, title: string, links: string[] = []) =>
  void res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>Body of ${title}.</p>${links.map((href) => `<a href="${href}">link</a>`).join(' ')}</main></body></html>`,
    );

/**
 * A hostile site (issue 12): an evil glob against a long path, a 490 KB robots.txt of wildcard
 * rules and a 2 MB sitemap of unclosed <url> tags. The crawl must end well inside its deadline
 * (the abort signal fails it otherwise) while a light crawl of another site runs beside it.
 */
describe('a crawl of a hostile site', () => {
  let evil: FixtureSite;
  let blog: FixtureSite;
  let fetcher: SafeFetcher;
  let deps: WebDeps;
  const longPath = `/${'a'.repeat(5_000)}`;

  beforeAll(async () => {
    evil = await startFixtureSite();
    const rule = `Disallow: /*${'a*'.repeat(500)}x`;
    const rules = ['User-agent: *', ...Array.from({ length: Math.floor((490 * 1024) / (rule.length + 1)) }, () => rule)];
    evil.route('/robots.txt', (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(rules.join('\n')));
    evil.route(
      '/sitemap.xml',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(`<urlset><url><loc>${evil.origin}/ok-sitemap</loc></url>${'<url>'.repeat(400_000)}`),
    );
    evil.route('/', (_req, res) => html(res, 'Home', [longPath, '/ok-linked']));
    evil.route(longPath, (_req, res) => html(res, 'Long'));
    evil.route('/ok-linked', (_req, res) => html(res, 'Linked'));
    evil.route('/ok-sitemap', (_req, res) => html(res, 'From the sitemap'));
    blog = await startBlogSite();
    fetcher = createSafeFetcher({ allowPrivate: true });
    deps = { allowPrivate: true, fetchImpl: fetcher.fetch };
  });
  afterAll(async () => {
    await fetcher.close();
    await evil.close();
    await blog.close();
  });

  it('ends within its deadline, following only what the patterns allow, while a light crawl completes', async () => {
    const hostile = crawl(
      {
        url: `${evil.origin}/`,
        depth: 1,
        limit: 20,
        patterns: ['/*a*a*a*a*a*a*a*ax', '/**a**a**a**a**a**a**x', '/ok-*'],
        signal: AbortSignal.timeout(30_000),
      },
      deps,
    );
    const light = crawl({ url: `${blog.origin}/`, depth: 1, signal: AbortSignal.timeout(30_000) }, deps);
    const [result, lightResult] = await Promise.all([hostile, light]);
    expect(
      Object.keys(result.crawl_data)
        .map((url) => new URL(url).pathname)
        .sort(),
    ).toEqual(['/', '/ok-linked', '/ok-sitemap']);
    expect(evil.hits).not.toContain(longPath);
    expect(lightResult.statistics.successful_pages).toBe(5);
  });
});
