/**
 * GET /v1/scrape through the real gateway and a parse worker in this process, against the local
 * fixture site: formats, errors with their codes, the result cache, format=links with depth.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { QUEUES } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite, testRedisUrl, PAGES_ROOT } from '@sitelens/testkit';
import { getJson } from '@sitelens/testkit/test-gateway';
import { startServiceStack, type ServiceStack } from './support/service-stack';

const PAGES = PAGES_ROOT;

describe('GET /v1/scrape', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  let versions = 0;
  const scrape = (query: string) => getJson(`${stack.origin}/v1/scrape?${query}`);
  const url = (p: string) => encodeURIComponent(`${site.origin}${p}`);

  beforeAll(async () => {
    site = await startFixtureSite({ root: PAGES });
    site.route('/slow', (_req, res) => {
      const timer = setTimeout(() => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 5_000);
      res.on('close', () => clearTimeout(timer));
    });
    // A page that changes on every fetch, to tell cached answers from fresh ones.
    site.route('/counter', (_req, res) => {
      versions += 1;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<html><head><title>Counter</title></head><body><main><h1>Counter</h1><p>This is version ${versions} of the page.</p></main></body></html>`,
      );
    });
    site.route(
      '/hub',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><main><h1>Hub</h1><a href="/leaf-a">A</a> <a href="/leaf-b">B</a></main></body></html>'),
    );
    for (const leaf of ['a', 'b']) {
      site.route(
        `/leaf-${leaf}`,
        (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              `<html><body><main><h1>Leaf ${leaf}</h1><a href="/deep-${leaf}">deeper</a> <a href="https://other.example/${leaf}">out</a></main></body></html>`,
            ),
      );
    }
    stack = await startServiceStack();
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  it('answers the contract body with main-content markdown, absolute links and metadata', async () => {
    const response = await scrape(`url=${url('/article.html')}&format=markdown`);
    expect(response.status).toBe(200);
    const expected = readFileSync(path.join(PAGES, 'article.expected.md'), 'utf8')
      .trimEnd()
      .replaceAll('https://news.example', site.origin);
    expect(response.json.content).toBe(expected);
    expect(response.json).toMatchObject({
      success: true,
      url: `${site.origin}/article.html`,
      title: 'How Tide Pools Survive Heatwaves | Coastal Times',
      discovered: 17,
      metadata: {
        status_code: 200,
        source_url: `${site.origin}/article.html`,
        language: 'en-GB',
        canonical: `${site.origin}/science/tide-pools-heatwaves`,
        og_image: `${site.origin}/images/tide-pool-wide.jpg`,
      },
    });
    expect(Object.keys(response.json)).toEqual(['success', 'url', 'title', 'content', 'links', 'discovered', 'metadata']);
    const links = response.json.links as string[];
    expect(links).toHaveLength(17);
    for (const link of links) expect(link).toMatch(/^https?:\/\/[^/]+\//);
    expect(links).toContain(`${site.origin}/science/marine-lab`);
    expect(response.json.content).not.toContain('We use cookies');
  });

  it('is the default format, on the /api/v1 path too', async () => {
    const response = await getJson(`${stack.origin}/api/v1/scrape?url=${url('/article.html')}`);
    expect(response.status).toBe(200);
    expect((response.json.content as string).startsWith('# How Tide Pools Survive Heatwaves\n')).toBe(true);
  });

  it('gives text, cleaned html with the page html on request, and links', async () => {
    const text = await scrape(`url=${url('/article.html')}&format=text`);
    expect(text.json.content).toMatch(/^How Tide Pools Survive Heatwaves\n\nWhen the summer of 2023/);
    expect(text.json.content).toContain('North ledge\t12\t31.4\t64%');
    expect(text.json.html).toBeUndefined();

    const html = await scrape(`url=${url('/article.html')}&format=html&include_html=true`);
    expect(html.json.content).toMatch(/^<h1>How Tide Pools Survive Heatwaves<\/h1>/);
    expect(html.json.content).toContain('<td>Deep gully</td>');
    expect(html.json.content).not.toContain('cookie');
    expect(html.json.html).toBe(readFileSync(path.join(PAGES, 'article.html'), 'utf8'));

    const links = await scrape(`url=${url('/article.html')}&format=links`);
    expect(links.json).toMatchObject({ success: true, discovered: 17, metadata: { status_code: 200, depth: 1 } });
    expect((links.json.links as string[])[0]).toBe(`${site.origin}/privacy`);
    // One link a line in content, as Supacrawler's engine answers format=links.
    expect(links.json.content).toBe((links.json.links as string[]).join('\n'));
  });

  it('maps links with depth and max_links', async () => {
    const one = await scrape(`url=${url('/hub')}&format=links`);
    expect(one.json.links).toEqual([`${site.origin}/leaf-a`, `${site.origin}/leaf-b`]);

    const two = await scrape(`url=${url('/hub')}&format=links&depth=2`);
    expect(two.json).toMatchObject({ discovered: 6, metadata: { depth: 2 } });
    expect(two.json.links).toEqual([
      `${site.origin}/leaf-a`,
      `${site.origin}/leaf-b`,
      `${site.origin}/deep-a`,
      'https://other.example/a',
      `${site.origin}/deep-b`,
      'https://other.example/b',
    ]);

    const capped = await scrape(`url=${url('/hub')}&format=links&depth=2&max_links=3`);
    expect(capped.json).toMatchObject({
      discovered: 3,
      links: [`${site.origin}/leaf-a`, `${site.origin}/leaf-b`, `${site.origin}/deep-a`],
    });

    // The clients allow 0 for both: the page's own links, no cap.
    const zero = await scrape(`url=${url('/hub')}&format=links&depth=0&max_links=0`);
    expect(zero.json).toMatchObject({ discovered: 2, links: [`${site.origin}/leaf-a`, `${site.origin}/leaf-b`], metadata: { depth: 0 } });
  });

  it('answers repeated requests from the cache until fresh=true', async () => {
    const first = await scrape(`url=${url('/counter')}`);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.json.content).toContain('This is version 1 of the page.');

    const again = await scrape(`url=${url('/counter')}`);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.json).toEqual(first.json);

    const fresh = await scrape(`url=${url('/counter')}&fresh=true`);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect(fresh.json.content).toContain('This is version 2 of the page.');
    // The fresh answer replaced the cached one; another format is its own entry.
    expect((await scrape(`url=${url('/counter')}`)).json.content).toContain('version 2');
    expect((await scrape(`url=${url('/counter')}&format=text`)).json.content).toContain('version 3');
    expect(versions).toBe(3);

    const keys = await stack.gateway.deps.redis.keys(`${stack.gateway.config.redis.prefix}:scrape-cache:*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    const ttl = await stack.gateway.deps.redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(250);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  it.each([
    [404, 'an upstream 404', '/no-such-page.html', '', 'UPSTREAM_NOT_FOUND', /^Page not found \(HTTP 404\): /],
    [403, 'a page robots.txt disallows', '/members/area.html', '', 'ROBOTS_DISALLOWED', /^robots\.txt disallows /],
    [408, 'a page slower than the timeout', '/slow', '&timeout=1', 'TIMEOUT', /took longer than the 1 s timeout/],
  ])('answers %i for %s', async (status, _name, pagePath, extra, code, message) => {
    const response = await scrape(`url=${url(pagePath)}${extra}`);
    expect(response.status).toBe(status);
    expect(response.json).toMatchObject({ success: false, code });
    expect(response.json.error).toMatch(message);
  });

  it('never caches failures', async () => {
    await scrape(`url=${url('/no-such-page.html')}`);
    const keys = await stack.gateway.deps.redis.keys(`${stack.gateway.config.redis.prefix}:scrape-cache:*`);
    const cached = await Promise.all(keys.map((key) => stack.gateway.deps.redis.get(key)));
    expect(cached.some((value) => value?.includes('no-such-page'))).toBe(false);
  });

  it.each([
    ['no url', '', 'url', 'is required'],
    ['a relative url', 'url=/article.html', 'url', 'must be an absolute http or https URL'],
    ['an ftp url', 'url=ftp%3A%2F%2Fexample.com%2F', 'url', 'must be an absolute http or https URL'],
    ['an unknown format', 'url=https%3A%2F%2Fexample.com&format=pdf', 'format', ''],
    ['a zero timeout', 'url=https%3A%2F%2Fexample.com&timeout=0', 'timeout', 'must be between 1 and 120'],
    ['a depth of 6', 'url=https%3A%2F%2Fexample.com&format=links&depth=6', 'depth', 'must be between 0 and 5'],
    ['a non-boolean fresh', 'url=https%3A%2F%2Fexample.com&fresh=maybe', 'fresh', ''],
  ])('answers 400 naming the field for %s, before any job', async (_name, query, field, message) => {
    const response = await scrape(query);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field });
    expect(response.json.error).toContain(`'${field}'`);
    expect(response.json.error).toContain(message);
  });

  it('takes what the Supacrawler clients send: extra parameters, and a JSON content type on a GET', async () => {
    const response = await getJson(
      `${stack.origin}/v1/scrape?url=${url('/article.html')}&format=markdown&proxy_mode=off&rotate_user_agent=true` +
        '&enable_bot_protection=true&max_consecutive_errors=5&wait_for_selectors=main&wait_for_selectors=article',
      { 'content-type': 'application/json', accept: 'application/json' },
    );
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ success: true, url: `${site.origin}/article.html` });
  });

  it('takes the content scope: the whole page, included elements, excluded ones (repeated parameters)', async () => {
    const main = await scrape(`url=${url('/article.html')}&format=markdown&fresh=true`);
    expect(main.json.content).not.toContain('[Opinion]');
    const whole = await scrape(`url=${url('/article.html')}&format=markdown&only_main_content=false`);
    expect(whole.status).toBe(200);
    expect(whole.json.content).toContain(`[Opinion](${site.origin}/opinion)`);
    expect(whole.json.content).toContain('What the sensors recorded');

    const included = await scrape(`url=${url('/article.html')}&format=text&include_selectors=h2&include_selectors=.primary-nav`);
    expect((included.json.content as string).split('\n').filter(Boolean).slice(0, 4)).toEqual([
      'World',
      'Science',
      'Opinion',
      'What the sensors recorded',
    ]);

    const excluded = await scrape(`url=${url('/article.html')}&format=markdown&exclude_selectors=h2`);
    expect(excluded.json.content).not.toContain('What the sensors recorded');
    expect(excluded.json.content).toContain((main.json.content as string).split('\n')[0]);
    expect(excluded.headers.get('x-cache')).toBe('MISS');
  });

  it('leaves no scrape job behind that nobody will read', async () => {
    const queue = new Queue(QUEUES.parse, { connection: { url: testRedisUrl() }, prefix: stack.gateway.config.redis.prefix });
    try {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, prioritized: 0 });
    } finally {
      await queue.close();
    }
  });
});
