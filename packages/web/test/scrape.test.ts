import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, TimeoutError, UrlBlocked } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite, PAGES_ROOT } from '@sitelens/testkit';
import { scrapeUrl } from '../src/scrape';
import { createSafeFetcher, type SafeFetcher } from '../src/safe-fetch';
import type { Renderer, WebDeps } from '../src/deps';

const PAGES = PAGES_ROOT;
const RENDERED = `<html><head><title>Dashboard</title></head><body><main><h1>Dashboard</h1>
  <p>Rendered by the browser: twelve open orders and three pending refunds.</p></main></body></html>`;

function fakeRenderer(html = RENDERED): Renderer & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async render(url) {
      calls.push(url);
      return { html, status: 200, finalUrl: url };
    },
  };
}

describe('scrapeUrl against the fixture site', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;
  let deps: WebDeps;

  beforeAll(async () => {
    site = await startFixtureSite({ root: PAGES });
    site.route('/old-article', (_req, res) => void res.writeHead(301, { location: '/article.html' }).end());
    site.route('/into-members', (_req, res) => void res.writeHead(302, { location: '/members/area.html' }).end());
    site.route('/slow', (_req, res) => {
      const timer = setTimeout(() => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 3000);
      res.on('close', () => clearTimeout(timer));
    });
    site.route('/broken', (_req, res) => void res.writeHead(503, { 'content-type': 'text/html' }).end('<p>down</p>'));
    // Served without a charset, as old servers do: the page's http-equiv has to be read.
    site.route(
      '/legacy-post',
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(readFileSync(path.join(PAGES, 'div-post.html'))),
    );
    site.route('/data.json', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    site.route('/photo.png', (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10)));
    fetcher = createSafeFetcher({ allowPrivate: true });
    deps = { allowPrivate: true, fetchImpl: fetcher.fetch };
  });

  afterAll(async () => {
    await fetcher.close();
    await site.close();
  });

  it('answers the contract body for a markdown scrape of the article', async () => {
    const result = await scrapeUrl({ url: `${site.origin}/article.html` }, deps);
    const expected = readFileSync(path.join(PAGES, 'article.expected.md'), 'utf8')
      .trimEnd()
      .replaceAll('https://news.example', site.origin);
    expect(result.content).toBe(expected);
    expect(result).toMatchObject({
      success: true,
      url: `${site.origin}/article.html`,
      title: 'How Tide Pools Survive Heatwaves | Coastal Times',
      discovered: 17,
      metadata: {
        status_code: 200,
        source_url: `${site.origin}/article.html`,
        title: 'How Tide Pools Survive Heatwaves | Coastal Times',
        description: 'Marine biologists tracked three rock pools through the hottest summer on record.',
        language: 'en-GB',
        canonical: `${site.origin}/science/tide-pools-heatwaves`,
        favicon: `${site.origin}/static/favicon-32.png`,
        og_title: 'How tide pools survive heatwaves',
        og_description: 'Three rock pools, one record summer.',
        og_image: `${site.origin}/images/tide-pool-wide.jpg`,
      },
    });
    expect(result.html).toBeUndefined();
    expect(result.links).toHaveLength(17);
    for (const link of result.links) expect(link).toMatch(/^https?:\/\//);
    expect(Object.keys(result)).toEqual(['success', 'url', 'title', 'content', 'links', 'discovered', 'metadata']);
  });

  it('gives text, cleaned html, links only, and the page html on request', async () => {
    const text = await scrapeUrl({ url: `${site.origin}/article.html`, format: 'text' }, deps);
    expect(text.content).toMatch(/^How Tide Pools Survive Heatwaves\n\nWhen the summer of 2023/);
    expect(text.content).toContain('North ledge\t12\t31.4\t64%');
    expect(text.content).not.toContain('We use cookies');

    const html = await scrapeUrl({ url: `${site.origin}/article.html`, format: 'html', includeHtml: true }, deps);
    expect(html.content).toMatch(/^<h1>How Tide Pools Survive Heatwaves<\/h1>/);
    expect(html.content).toContain('<td>Deep gully</td>');
    expect(html.content).not.toContain('cookie');
    expect(html.html).toBe(readFileSync(path.join(PAGES, 'article.html'), 'utf8'));

    const links = await scrapeUrl({ url: `${site.origin}/article.html`, format: 'links' }, deps);
    expect(links.content).toBe('');
    expect(links.discovered).toBe(17);
    expect(links.links[0]).toBe(`${site.origin}/privacy`);
  });

  it('decodes a windows-1252 page declared by http-equiv', async () => {
    const result = await scrapeUrl({ url: `${site.origin}/legacy-post` }, deps);
    expect(result.content).toContain('Total spend so far: £412.');
    expect(result.metadata.language).toBeUndefined();
  });

  it('reports the final URL after a redirect and the requested one as source_url', async () => {
    const result = await scrapeUrl({ url: `${site.origin}/old-article` }, deps);
    expect(result.url).toBe(`${site.origin}/article.html`);
    expect(result.metadata.source_url).toBe(`${site.origin}/old-article`);
    expect(result.content.startsWith('# How Tide Pools Survive Heatwaves')).toBe(true);
  });

  it('maps an upstream 404 to UPSTREAM_NOT_FOUND (404)', async () => {
    const error = await scrapeUrl({ url: `${site.origin}/no-such-page.html` }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UPSTREAM_NOT_FOUND', status: 404 });
    expect((error as AppError).message).toBe(`Page not found (HTTP 404): ${site.origin}/no-such-page.html`);
  });

  it('maps an upstream 5xx to a retryable UPSTREAM_ERROR', async () => {
    await expect(scrapeUrl({ url: `${site.origin}/broken` }, deps)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      status: 502,
      retryable: true,
    });
  });

  it('maps a slow page to TIMEOUT (408)', async () => {
    const error = await scrapeUrl({ url: `${site.origin}/slow`, timeoutMs: 300 }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(408);
  });

  it('refuses pages robots.txt disallows, also behind a redirect, without fetching them', async () => {
    await expect(scrapeUrl({ url: `${site.origin}/members/area.html` }, deps)).rejects.toMatchObject({
      code: 'ROBOTS_DISALLOWED',
      status: 403,
    });
    await expect(scrapeUrl({ url: `${site.origin}/into-members` }, deps)).rejects.toMatchObject({
      code: 'ROBOTS_DISALLOWED',
    });
    expect(site.hits).not.toContain('/members/area.html');
  });

  it('returns JSON and other text as is, and refuses binary content', async () => {
    const json = await scrapeUrl({ url: `${site.origin}/data.json` }, deps);
    expect(json.content).toBe('{"ok":true}');
    const refused = await scrapeUrl({ url: `${site.origin}/photo.png` }, deps).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    expect((refused as Error).message).toContain('image/png');
  });

  it('refuses the private fixture address in hosted mode, with URL_BLOCKED (403)', async () => {
    const before = site.hits.length;
    for (const url of [`${site.origin}/article.html`, 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]/']) {
      const error = await scrapeUrl({ url }, { allowPrivate: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UrlBlocked);
      expect((error as UrlBlocked).status).toBe(403);
    }
    expect(site.hits.length).toBe(before);
  });

  describe('rendering', () => {
    it('renders automatically when the fetched HTML is an empty script shell', async () => {
      const renderer = fakeRenderer();
      const result = await scrapeUrl({ url: `${site.origin}/js-shell.html` }, { ...deps, renderer });
      expect(renderer.calls).toEqual([`${site.origin}/js-shell.html`]);
      expect(result.content).toBe('# Dashboard\n\nRendered by the browser: twelve open orders and three pending refunds.');
    });

    it('does not render a server-rendered page in auto mode, nor anything with render_js=false', async () => {
      const renderer = fakeRenderer();
      await scrapeUrl({ url: `${site.origin}/article.html` }, { ...deps, renderer });
      const shell = await scrapeUrl({ url: `${site.origin}/js-shell.html`, renderJs: false }, { ...deps, renderer });
      expect(renderer.calls).toEqual([]);
      expect(shell.content).not.toContain('Rendered by the browser');
    });

    it('always renders with render_js=true, without fetching first', async () => {
      const renderer = fakeRenderer();
      const before = site.hits.filter((p) => p === '/article.html').length;
      const result = await scrapeUrl({ url: `${site.origin}/article.html`, renderJs: true }, { ...deps, renderer });
      expect(renderer.calls).toEqual([`${site.origin}/article.html`]);
      expect(result.content).toContain('twelve open orders');
      expect(site.hits.filter((p) => p === '/article.html').length).toBe(before);
    });

    it('answers UNAVAILABLE for render_js=true when no browser is configured', async () => {
      await expect(scrapeUrl({ url: `${site.origin}/article.html`, renderJs: true }, deps)).rejects.toMatchObject({
        code: 'UNAVAILABLE',
      });
    });

    it('keeps the fetched content when automatic rendering fails', async () => {
      const renderer: Renderer = {
        render: async () => {
          throw new Error('browser crashed');
        },
      };
      const result = await scrapeUrl({ url: `${site.origin}/js-shell.html` }, { ...deps, renderer });
      expect(result.title).toBe('Dashboard');
      expect(result.metadata.status_code).toBe(200);
    });

    it('maps a rendered 404 to UPSTREAM_NOT_FOUND', async () => {
      const renderer: Renderer = { render: async (url) => ({ html: '<h1>404</h1>', status: 404, finalUrl: url }) };
      await expect(scrapeUrl({ url: `${site.origin}/article.html`, renderJs: true }, { ...deps, renderer })).rejects.toMatchObject({
        code: 'UPSTREAM_NOT_FOUND',
      });
    });
  });
});
