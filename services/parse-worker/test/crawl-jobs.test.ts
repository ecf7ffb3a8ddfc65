/**
 * POST /v1/crawl and the job lookup through the real gateway and a parse worker in this process,
 * against the fixture blog (robots.txt, sitemaps) and small programmable sites.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { signWebhookBody } from '@sitelens/egress';
import { startFixtureSite, type FixtureSite, pageHits, startBlogSite } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';

type Json = Record<string, unknown>;
const WEBHOOK_SECRET = 'crawl-test-webhook-secret';

async function crawlToEnd(stack: ServiceStack, body: Json): Promise<Json> {
  const created = await postJson(`${stack.origin}/v1/crawl`, body);
  expect(created.status).toBe(202);
  const seen = await pollUntil(
    () => getJson(`${stack.origin}/v1/crawl/${created.json.job_id as string}`).then((r) => r.json),
    (view) => view.status !== 'processing',
  );
  return seen.at(-1)!;
}

const pathsOf = (site: FixtureSite, data: Json) => Object.keys(data.crawl_data as Json).map((url) => url.slice(site.origin.length));

describe('crawl jobs', () => {
  let stack: ServiceStack;
  let blog: FixtureSite;

  beforeAll(async () => {
    stack = await startServiceStack({ WEBHOOK_SECRET });
  });
  afterAll(() => stack?.close());
  beforeEach(async () => {
    blog = await startBlogSite();
  });
  afterEach(() => blog.close());

  it('answers 202 with a status_url, then the contract data: exactly the posts, never the disallowed page', async () => {
    const created = await postJson(`${stack.origin}/api/v1/crawl`, { url: `${blog.origin}/` });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    expect(created.json).toEqual({
      success: true,
      job_id: jobId,
      type: 'crawl',
      status: 'processing',
      status_url: `${stack.origin}/v1/crawl/${jobId}`,
    });
    expect(jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const [final] = (
      await pollUntil(
        () => getJson(created.json.status_url as string).then((r) => r.json),
        (view) => view.status === 'completed',
      )
    ).slice(-1);
    expect(final).toMatchObject({ success: true, job_id: jobId, type: 'crawl', status: 'completed' });
    const data = final!.data as Json;
    expect(data.url).toBe(`${blog.origin}/`);
    expect(pathsOf(blog, data).sort()).toEqual([
      '/',
      '/posts/first-post.html',
      '/posts/fourth-post.html',
      '/posts/second-post.html',
      '/posts/third-post.html',
    ]);
    expect(data.error_data).toEqual({});
    expect(data.statistics).toEqual({ total_pages: 5, successful_pages: 5, failed_pages: 0 });
    expect(pageHits(blog)).not.toContain('/private/drafts.html');

    const first = (data.crawl_data as Json)[`${blog.origin}/posts/first-post.html`] as Json;
    expect(first).toEqual({
      markdown: expect.stringMatching(/^# First post\n\nThe first entry of the blog/),
      links: [`${blog.origin}/`, `${blog.origin}/posts/second-post.html`],
      metadata: { title: 'First post - Field Notes', status_code: 200 },
    });

    // The same job through the other path.
    expect((await getJson(`${stack.origin}/v1/crawl/${jobId}`)).json).toEqual(final);
  });

  it.each([
    [1, ['/']],
    [3, ['/', '/posts/first-post.html', '/posts/second-post.html']],
  ])('stops at link_limit %i, the start page counted', async (linkLimit, expected) => {
    const final = await crawlToEnd(stack, { url: `${blog.origin}/`, link_limit: linkLimit });
    const data = final.data as Json;
    expect(pathsOf(blog, data)).toEqual(expected);
    expect(data.statistics).toEqual({ total_pages: linkLimit, successful_pages: linkLimit, failed_pages: 0 });
    expect(pageHits(blog)).toHaveLength(linkLimit);
  });

  it('follows only pages whose path matches the patterns', async () => {
    const final = await crawlToEnd(stack, { url: `${blog.origin}/`, patterns: ['/posts/first-*', 'posts/fourth-post.html'] });
    expect(pathsOf(blog, final.data as Json)).toEqual(['/', '/posts/first-post.html', '/posts/fourth-post.html']);
  });

  it('cancels a running crawl: pages in flight are dropped, the pages done are kept, nothing more is fetched', async () => {
    const site = await startFixtureSite();
    const held: Array<() => void> = [];
    try {
      site.route(
        '/',
        (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              '<html><head><title>Hub</title></head><body><main><h1>Hub</h1><p>The hub of a slow site.</p><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></main></body></html>',
            ),
      );
      // These never answer until the test ends: the crawl is caught with pages in flight.
      for (const path of ['/a', '/b', '/c']) {
        site.route(path, (_req, res) => {
          held.push(() => res.destroy());
        });
      }
      const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 1, link_limit: 10, render_js: false });
      const jobId = created.json.job_id as string;
      await pollUntil(
        async () => site.hits.filter((path) => ['/a', '/b', '/c'].includes(path)).length,
        (inFlight) => inFlight > 0,
      );
      const cancelled = await fetch(`${stack.origin}/v1/crawl/${jobId}`, { method: 'DELETE' });
      expect(await cancelled.json()).toMatchObject({ success: true, job_id: jobId, status: 'cancelled' });
      const [final] = (
        await pollUntil(
          () => getJson(`${stack.origin}/v1/crawl/${jobId}`).then((r) => r.json),
          (view) => (view.data as Json | undefined)?.crawl_data !== undefined,
        )
      ).slice(-1);
      expect(final).toMatchObject({ success: true, status: 'cancelled', data: { cancelled: true } });
      const data = final!.data as Json;
      expect(Object.keys(data.crawl_data as Json)).toEqual([`${site.origin}/`]);
      expect(data.statistics).toEqual({ total_pages: 1, successful_pages: 1, failed_pages: 0 });
      const hitsAtEnd = site.hits.length;
      // Asked again, the crawl is over and stays cancelled.
      const again = await fetch(`${stack.origin}/v1/crawl/${jobId}`, { method: 'DELETE' });
      expect(await again.json()).toMatchObject({ status: 'cancelled', message: 'The crawl had already ended (cancelled)' });
      expect(site.hits.length).toBe(hitsAtEnd);
    } finally {
      for (const release of held) release();
      await site.close();
    }
  });

  it('max_age reuses pages fetched that recently instead of fetching them again', async () => {
    const body = { url: `${blog.origin}/`, depth: 1, link_limit: 5 };
    const pagesFetched = () => pageHits(blog).filter((path) => path === '/' || path.startsWith('/posts/')).length;
    const first = await crawlToEnd(stack, { ...body, max_age: 3_600 });
    expect(first.status).toBe('completed');
    const afterFirst = pagesFetched();
    expect(afterFirst).toBe(5);

    const reused = await crawlToEnd(stack, { ...body, max_age: 3_600 });
    expect(pagesFetched()).toBe(afterFirst);
    expect((reused.data as Json).crawl_data).toEqual((first.data as Json).crawl_data);

    // Without max_age, or with other options, pages are fetched again.
    await crawlToEnd(stack, body);
    expect(pagesFetched()).toBe(afterFirst * 2);
    await crawlToEnd(stack, { ...body, max_age: 3_600, format: 'text' });
    expect(pagesFetched()).toBe(afterFirst * 3);
  });

  it('leaves out pages whose path matches exclude_patterns', async () => {
    const final = await crawlToEnd(stack, { url: `${blog.origin}/`, patterns: ['/posts/*'], exclude_patterns: ['/posts/first-*'] });
    const paths = pathsOf(blog, final.data as Json);
    expect(paths).toContain('/');
    expect(paths.some((path) => path.startsWith('/posts/'))).toBe(true);
    expect(paths.filter((path) => path !== '/' && !path.startsWith('/posts/'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/posts/first-'))).toEqual([]);
  });

  it('gives text and page html when asked', async () => {
    const final = await crawlToEnd(stack, {
      url: `${blog.origin}/posts/first-post.html`,
      format: 'text',
      include_html: true,
      link_limit: 1,
    });
    const page = (final.data as { crawl_data: Record<string, Json> }).crawl_data[`${blog.origin}/posts/first-post.html`]!;
    expect(page.markdown).toMatch(/^First post\n\nThe first entry of the blog/);
    expect(page.html).toContain('<title>First post - Field Notes</title>');
  });

  it("accepts the Python client's nulls for unset fields", async () => {
    const final = await crawlToEnd(stack, {
      url: `${blog.origin}/`,
      format: 'markdown',
      depth: null,
      link_limit: null,
      include_subdomains: null,
      render_js: null,
      include_html: null,
      proxy_mode: 'off',
      rotate_user_agent: true,
    });
    expect((final.data as Json).statistics).toEqual({ total_pages: 5, successful_pages: 5, failed_pages: 0 });
  });

  it("takes the JS client's format links and type fields, crawling markdown", async () => {
    const final = await crawlToEnd(stack, { url: `${blog.origin}/`, type: 'crawl', format: 'links', link_limit: 1 });
    const home = (final.data as { crawl_data: Record<string, Json> }).crawl_data[`${blog.origin}/`]!;
    expect(home.markdown).toMatch(/^# Field Notes\n/);
    expect(home.links).toContain(`${blog.origin}/posts/first-post.html`);
  });

  it('reports a robots-disallowed start page in error_data', async () => {
    const final = await crawlToEnd(stack, { url: `${blog.origin}/private/drafts.html` });
    expect(final).toMatchObject({ success: true, status: 'completed' });
    expect(final.data).toEqual({
      url: `${blog.origin}/private/drafts.html`,
      crawl_data: {},
      error_data: { [`${blog.origin}/private/drafts.html`]: `robots.txt disallows ${blog.origin}/private/drafts.html` },
      statistics: { total_pages: 1, successful_pages: 0, failed_pages: 1 },
    });
  });

  it.each([
    ['a missing url', {}, 'url'],
    ['depth 6', { url: 'https://example.com', depth: 6 }, 'depth'],
    ['link_limit 1001', { url: 'https://example.com', link_limit: 1001 }, 'link_limit'],
    ['an unknown format', { url: 'https://example.com', format: 'pdf' }, 'format'],
    ['patterns that are not strings', { url: 'https://example.com', patterns: [1] }, 'patterns.0'],
    [
      'too many exclude patterns',
      { url: 'https://example.com', exclude_patterns: Array.from({ length: 51 }, (_, i) => `/p${i}`) },
      'exclude_patterns',
    ],
    ['a webhook_url that is not http', { url: 'https://example.com', webhook_url: 'ftp://example.com' }, 'webhook_url'],
    ['a webhook header with a line break', { url: 'https://example.com', webhook_headers: { 'X-A': 'a\r\nb' } }, 'webhook_headers'],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const response = await postJson(`${stack.origin}/v1/crawl`, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field });
  });

  it('answers 404 for an unknown job id', async () => {
    const response = await getJson(`${stack.origin}/v1/crawl/no-such-job`);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});

describe('crawl depth, progress and webhooks', () => {
  let stack: ServiceStack;
  let site: FixtureSite;
  let receiver: Server;
  let receiverUrl: string;
  let holdC: Promise<void> | undefined;
  const deliveries: Array<{ body: string; headers: IncomingHttpHeaders; statusOnArrival: unknown }> = [];

  beforeAll(async () => {
    // One page at a time, so progress is visible between pages.
    stack = await startServiceStack({ WEBHOOK_SECRET, CRAWL_CONCURRENCY: '1' });
    site = await startFixtureSite();
    // A chain / -> /a -> /b -> /c -> /d; no robots.txt, no sitemap. /c waits for `holdC` when a
    // test sets it, so the crawl is mid-way for as long as that test needs.
    const chain = ['/', '/a', '/b', '/c', '/d'];
    chain.forEach((pagePath, i) =>
      site.route(pagePath, async (_req, res) => {
        const next = chain[i + 1];
        if (pagePath === '/c') await holdC;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<html><head><title>Page ${pagePath}</title></head><body><main><h1>Page ${pagePath}</h1><p>Step ${i}.</p>${next ? `<a href="${next}">next</a>` : ''}</main></body></html>`,
        );
      }),
    );
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const jobId = (JSON.parse(body) as Json).job_id as string;
        // What a receiver that looks the job up on arrival sees.
        const statusOnArrival = (await getJson(`${stack.origin}/v1/crawl/${jobId}`)).json.status;
        deliveries.push({ body, headers: req.headers, statusOnArrival });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks/crawl`;
  });
  afterAll(async () => {
    await stack?.close();
    await site?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it.each([
    [1, ['/', '/a']],
    [2, ['/', '/a', '/b']],
    [4, ['/', '/a', '/b', '/c', '/d']],
  ])('follows links to depth %i', async (depth, expected) => {
    const final = await crawlToEnd(stack, { url: `${site.origin}/`, depth });
    expect(pathsOf(site, final.data as Json)).toEqual(expected);
  });

  it('shows statistics in data while the crawl runs', async () => {
    let openC: () => void = () => undefined;
    holdC = new Promise<void>((resolve) => (openC = resolve));
    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 5 });
    const read = () => getJson(created.json.status_url as string).then((r) => r.json);
    const countOf = (view: Json) =>
      ((view.data as Json | undefined)?.statistics as { successful_pages?: number } | undefined)?.successful_pages ?? 0;
    // Mid-way (held at /c): progress shows the pages done so far; then the crawl may finish.
    const midway = await pollUntil(read, (view) => view.status === 'processing' && countOf(view) > 0);
    openC();
    holdC = undefined;
    const views = [...midway, ...(await pollUntil(read, (view) => view.status === 'completed'))];
    const running = views.filter((view) => view.status === 'processing');
    expect(running.length).toBeGreaterThan(0);
    for (const view of running) {
      expect(view).toMatchObject({ success: true, type: 'crawl', data: { url: `${site.origin}/`, statistics: expect.any(Object) } });
    }
    const done = running.map((view) => ((view.data as Json).statistics as { successful_pages: number }).successful_pages);
    // Progress only grows, and pages were reported before the crawl ended.
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.some((count) => count > 0 && count < 5)).toBe(true);
    expect((views.at(-1)!.data as Json).statistics).toEqual({ total_pages: 5, successful_pages: 5, failed_pages: 0 });
  });

  it('posts the signed result to the webhook once the job has completed', async () => {
    const created = await postJson(`${stack.origin}/v1/crawl`, {
      url: `${site.origin}/`,
      depth: 1,
      webhook_url: receiverUrl,
      webhook_headers: { 'X-Receiver-Token': 'abc123' },
    });
    const jobId = created.json.job_id as string;
    await pollUntil(
      async () => deliveries.length,
      (count) => count > 0,
    );
    const [delivery] = deliveries;
    expect(delivery!.headers['x-signature']).toBe(signWebhookBody(delivery!.body, WEBHOOK_SECRET));
    expect(delivery!.headers['x-receiver-token']).toBe('abc123');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.statusOnArrival).toBe('completed');
    const lookup = (await getJson(`${stack.origin}/v1/crawl/${jobId}`)).json;
    expect(JSON.parse(delivery!.body)).toEqual({
      event: 'crawl.completed',
      job_id: jobId,
      type: 'crawl',
      status: 'completed',
      data: lookup.data,
    });
  });

  it('sends the asked webhook_events in order, each signed: started, every page, then completed', async () => {
    deliveries.length = 0;
    const created = await postJson(`${stack.origin}/v1/crawl`, {
      url: `${site.origin}/`,
      depth: 5,
      webhook_url: receiverUrl,
      webhook_events: ['crawl.started', 'crawl.page', 'crawl.completed'],
    });
    const jobId = created.json.job_id as string;
    await pollUntil(
      async () => deliveries.map((delivery) => (JSON.parse(delivery.body) as Json).event),
      (events) => events.includes('crawl.completed'),
    );
    const bodies = deliveries.map((delivery) => JSON.parse(delivery.body) as Json);
    for (const delivery of deliveries) expect(delivery.headers['x-signature']).toBe(signWebhookBody(delivery.body, WEBHOOK_SECRET));
    expect(bodies.map((body) => [body.event, body.url ?? null])).toEqual([
      ['crawl.started', `${site.origin}/`],
      ...['/', '/a', '/b', '/c', '/d'].map((path) => ['crawl.page', `${site.origin}${path}`]),
      ['crawl.completed', null],
    ]);
    expect(bodies[1]).toMatchObject({ job_id: jobId, type: 'crawl', depth: 0, data: { metadata: { title: 'Page /' } } });
    expect((bodies[1]!.data as Json).markdown).toContain('Step 0.');

    // Events only: no end webhook when the end is not asked for; webhook_events needs webhook_url.
    const refused = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, webhook_events: ['crawl.page'] });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'webhook_events' });
  });
});
