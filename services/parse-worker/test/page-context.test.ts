/**
 * The page context (headers, cookies, user agent, basic auth, locale, block_cookies) and
 * wait_for_selectors on scrape, crawl and watch, through the real gateway and a parse worker in
 * this process. The fixture site answers under three names (target.test, docs.target.test and
 * thirdparty.test, all 127.0.0.1 for the fetcher and for Chromium), so what reaches the target's
 * site and what reaches a third party can be told apart, fetched and rendered.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Worker } from 'bullmq';
import { QUEUES, type ScreenshotCreateRequest } from '@sitelens/contracts';
import { startFixtureSite, testRedisUrl, type FixtureSite } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { call } from './support/watch-fixtures';

interface Seen {
  path: string;
  host: string;
  headers: IncomingHttpHeaders;
}

const CONTEXT = {
  headers: { 'X-Api-Key': 'key-123' },
  cookies: [{ name: 'session', value: 'abc' }],
  user_agent: 'ContextBot/2.0',
  http_auth: { username: 'reader', password: 'open sesame' },
  locale: 'de-DE',
};
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4AWMAAQAABQABNtCI3QAAAABJRU5ErkJggg==', 'base64');
const BASIC = `Basic ${Buffer.from('reader:open sesame').toString('base64')}`;

describe('page context on scrape, crawl and watch', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  let seen: Seen[] = [];
  let target: string;
  let docs: string;
  let thirdParty: string;

  const html = (body: string) => (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ path: new URL(req.url ?? '/', 'http://x').pathname, host: (req.headers.host ?? '').split(':')[0]!, headers: req.headers });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
  const seenAt = (host: string, path: string) => seen.filter((entry) => entry.host === host && entry.path === path);
  const api = (path: string) => `${stack.origin}${path}`;

  beforeAll(async () => {
    site = await startFixtureSite();
    target = `http://target.test:${site.port}`;
    docs = `http://docs.target.test:${site.port}`;
    thirdParty = `http://thirdparty.test:${site.port}`;
    site.route(
      '/page',
      html(
        `<html><head><title>Members</title></head><body><main><h1>Members page</h1>` +
          `<p>Only readers with a session see this paragraph about the quarterly figures and what they mean.</p>` +
          `<a href="${docs}/guide">Guide</a> <a href="${thirdParty}/page">Elsewhere</a></main></body></html>`,
      ),
    );
    site.route(
      '/guide',
      html(
        `<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>The guide explains every step of the setup in order.</p></main></body></html>`,
      ),
    );
    site.route('/off-site', (req, res) => {
      seen.push({ path: '/off-site', host: (req.headers.host ?? '').split(':')[0]!, headers: req.headers });
      res.writeHead(302, { location: `${thirdParty}/page` }).end();
    });
    // Rendered only: the content arrives late, says which language the page sees, and a script
    // from a third party is loaded (it must not get the request's headers).
    site.route(
      '/late',
      html(
        `<html><head><title>Late</title><script src="${thirdParty}/lib.js"></script></head><body><main><h1>Late page</h1><div id="slot"></div></main>` +
          `<script>setTimeout(() => { document.getElementById('slot').innerHTML = '<p id="late">Loaded late, in ' + navigator.language + ', for a reader who waited long enough to see it.</p>'; }, 300);</script>` +
          `</body></html>`,
      ),
    );
    site.route('/lib.js', (req, res) => {
      seen.push({ path: '/lib.js', host: (req.headers.host ?? '').split(':')[0]!, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/javascript' }).end('window.lib = true;');
    });
    // A consent wall of a known platform (orestbida's cookieconsent v2 markup): the article is
    // only shown once the visitor has answered.
    site.route(
      '/walled',
      html(
        `<!doctype html><html class="show--consent"><head><title>Walled</title></head><body><main><h1>Walled article</h1><div id="article"></div></main>` +
          `<div id="cc--main"><div id="cm"><p>We value your privacy.</p><button id="s-all-bn">Accept all</button>` +
          `<button id="s-rall-bn" onclick="document.getElementById('article').innerHTML='<p>The article behind the wall, shown once consent was answered by the visitor.</p>';document.documentElement.classList.remove('show--consent');document.getElementById('cc--main').remove()">Reject all</button>` +
          `</div></div></body></html>`,
      ),
    );
    stack = await startServiceStack(
      {},
      {},
      {
        resolve: async (host) => (host.endsWith('.test') ? [{ address: '127.0.0.1', family: 4 }] : []),
        browserArgs: ['--host-resolver-rules=MAP *.test 127.0.0.1'],
      },
    );
  });

  afterAll(async () => {
    await stack?.close();
    await site?.close();
  });

  beforeEach(() => {
    seen = [];
  });

  it('scrape (fetched): the target site gets headers, cookie, basic auth, user agent and language; a redirect off the site gets none of the secrets', async () => {
    const query = new URLSearchParams({
      url: `${target}/page`,
      render_js: 'false',
      fresh: 'true',
      headers: JSON.stringify(CONTEXT.headers),
      cookies: JSON.stringify(CONTEXT.cookies),
      http_auth: JSON.stringify(CONTEXT.http_auth),
      user_agent: CONTEXT.user_agent,
      locale: CONTEXT.locale,
    });
    const response = await getJson(api(`/v1/scrape?${query}`));
    expect(response.status).toBe(200);
    expect(response.json.content).toContain('Only readers with a session');
    const [page] = seenAt('target.test', '/page');
    expect(page!.headers).toMatchObject({
      'x-api-key': 'key-123',
      cookie: 'session=abc',
      authorization: BASIC,
      'user-agent': 'ContextBot/2.0',
      'accept-language': 'de-DE,de;q=0.9',
    });

    const off = await getJson(api(`/v1/scrape?${new URLSearchParams({ ...Object.fromEntries(query), url: `${target}/off-site` })}`));
    expect(off.status).toBe(200);
    expect(seenAt('target.test', '/off-site')[0]!.headers).toMatchObject({ 'x-api-key': 'key-123', cookie: 'session=abc' });
    const landed = seenAt('thirdparty.test', '/page')[0]!.headers;
    expect(landed['user-agent']).toBe('ContextBot/2.0');
    expect(landed['x-api-key']).toBeUndefined();
    expect(landed.cookie).toBeUndefined();
    expect(landed.authorization).toBeUndefined();
  });

  it('scrape (POST, rendered for wait_for_selectors): waits for late content, in the asked language; a third-party script gets no secrets', async () => {
    const response = await postJson(api('/v1/scrape'), {
      url: `${target}/late`,
      format: 'text',
      fresh: true,
      wait_for_selectors: ['#slot', '#late'],
      ...CONTEXT,
    });
    expect(response.status).toBe(200);
    expect(response.json.content).toContain('Loaded late, in de-DE');
    const [page] = seenAt('target.test', '/late');
    expect(page!.headers).toMatchObject({
      'x-api-key': 'key-123',
      cookie: 'session=abc',
      authorization: BASIC,
      'user-agent': 'ContextBot/2.0',
    });
    // As a browser set to German sends it (no q-value said twice).
    expect(page!.headers['accept-language']).toBe('de-DE,de;q=0.9');
    const [script] = seenAt('thirdparty.test', '/lib.js');
    expect(script!.headers['user-agent']).toBe('ContextBot/2.0');
    expect(script!.headers['x-api-key']).toBeUndefined();
    expect(script!.headers.cookie).toBeUndefined();
    expect(script!.headers.authorization).toBeUndefined();
  });

  it('scrape: a selector that never appears is a 408 naming it; wait_for_selectors with render_js=false is a 400', async () => {
    const missing = await postJson(api('/v1/scrape'), { url: `${target}/late`, fresh: true, timeout: 3, wait_for_selectors: ['#never'] });
    expect(missing.status).toBe(408);
    expect(missing.json).toMatchObject({ success: false, code: 'TIMEOUT' });
    expect(missing.json.error).toContain('#never');

    const conflict = await getJson(
      api(`/v1/scrape?url=${encodeURIComponent(`${target}/late`)}&render_js=false&wait_for_selectors=%23late`),
    );
    expect(conflict.status).toBe(400);
    expect(conflict.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'wait_for_selectors' });
  });

  it.each([
    ['headers that are not JSON', { headers: '{oops' }, 'headers'],
    ['a refused header', { headers: JSON.stringify({ Host: 'x' }) }, 'headers.Host'],
    ['a cookie for another site', { cookies: JSON.stringify([{ name: 'a', value: 'b', domain: 'thirdparty.test' }]) }, 'cookies.0.domain'],
    ['an invalid selector', { wait_for_selectors: 'div[' }, 'wait_for_selectors.0'],
    ['a bad locale', { locale: 'not a locale!' }, 'locale'],
  ])('scrape: %s is a 400 naming the field', async (_name, extra, field) => {
    const query = new URLSearchParams({ url: `${target}/page`, ...(extra as Record<string, string>) });
    const response = await getJson(api(`/v1/scrape?${query}`));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field });
  });

  it('scrape: the result cache keys on the context (another cookie is another entry)', async () => {
    const ask = (value: string) =>
      getJson(
        api(
          `/v1/scrape?${new URLSearchParams({ url: `${target}/page`, render_js: 'false', cookies: JSON.stringify([{ name: 'session', value }]) })}`,
        ),
      );
    expect((await ask('one')).headers.get('x-cache')).toBe('MISS');
    expect((await ask('two')).headers.get('x-cache')).toBe('MISS');
    expect((await ask('one')).headers.get('x-cache')).toBe('HIT');
    expect(seenAt('target.test', '/page').map((entry) => entry.headers.cookie)).toEqual(['session=one', 'session=two']);
  });

  it('scrape: block_cookies answers a known consent platform, so the walled article is read', async () => {
    const without = await postJson(api('/v1/scrape'), { url: `${target}/walled`, render_js: true, fresh: true, format: 'text' });
    expect(without.status).toBe(200);
    expect(without.json.content).not.toContain('The article behind the wall');
    const withConsent = await postJson(api('/v1/scrape'), {
      url: `${target}/walled`,
      render_js: true,
      fresh: true,
      format: 'text',
      block_cookies: true,
    });
    expect(withConsent.status).toBe(200);
    expect(withConsent.json.content).toContain('The article behind the wall');
  });

  it('crawl: every page of the site (subdomains included) gets the context; the linked third-party page is not crawled', async () => {
    const created = await postJson(api('/v1/crawl'), {
      url: `${target}/page`,
      depth: 1,
      link_limit: 5,
      include_subdomains: true,
      render_js: false,
      ...CONTEXT,
    });
    expect(created.status).toBe(202);
    const [done] = (
      await pollUntil(
        () => getJson(api(`/v1/crawl/${created.json.job_id}`)),
        (r) => r.json.status === 'completed' || r.json.status === 'failed',
      )
    ).slice(-1);
    expect(done!.json.status).toBe('completed');
    expect(Object.keys((done!.json.data as { crawl_data: object }).crawl_data)).toEqual(
      expect.arrayContaining([`${target}/page`, `${docs}/guide`]),
    );
    for (const [host, path] of [
      ['target.test', '/page'],
      ['docs.target.test', '/guide'],
    ]) {
      expect(seenAt(host!, path!)[0]!.headers).toMatchObject({
        'x-api-key': 'key-123',
        authorization: BASIC,
        'user-agent': 'ContextBot/2.0',
      });
    }
    // A host-only cookie (no domain) stays on the target's own host.
    expect(seenAt('target.test', '/page')[0]!.headers.cookie).toBe('session=abc');
    expect(seenAt('docs.target.test', '/guide')[0]!.headers.cookie).toBeUndefined();
    expect(seenAt('thirdparty.test', '/page')).toEqual([]);
  });

  it('watch: checks load the page with the context, the image job carries it, and the watch shows its secrets redacted', async () => {
    const shots: ScreenshotCreateRequest[] = [];
    const worker = new Worker(
      QUEUES.screenshot,
      async (job) => {
        shots.push(job.data.request as ScreenshotCreateRequest);
        const key = `screenshots/${job.id}.png`;
        await stack.gateway.store.put(key, PNG, 'image/png');
        return { key, contentType: 'image/png', metadata: { width: 1, height: 1, format: 'png' } };
      },
      { connection: { url: testRedisUrl() }, prefix: stack.gateway.config.redis.prefix },
    );
    try {
      const created = await postJson(api('/v1/watch'), {
        url: `${target}/page`,
        frequency: 'daily',
        include_image: true,
        ...CONTEXT,
        cookies: [{ name: 'session', value: 'abc', domain: 'target.test' }],
      });
      expect(created.status).toBe(201);
      expect(created.json.watch).toMatchObject({
        headers: { 'X-Api-Key': '[redacted]' },
        cookies: [{ name: 'session', value: '[redacted]', domain: 'target.test' }],
        http_auth: { username: 'reader', password: '[redacted]' },
        user_agent: 'ContextBot/2.0',
        locale: 'de-DE',
      });
      const id = created.json.watch_id as string;
      await pollUntil(
        async () => ((await getJson(api(`/v1/watch/${id}`))).json.results as unknown[]) ?? [],
        (list) => list.length >= 1,
      );
      expect(seenAt('target.test', '/page')[0]!.headers).toMatchObject({
        'x-api-key': 'key-123',
        cookie: 'session=abc',
        authorization: BASIC,
        'user-agent': 'ContextBot/2.0',
      });
      expect(shots[0]).toMatchObject({
        url: `${target}/page`,
        headers: CONTEXT.headers,
        cookies: [{ name: 'session', value: 'abc', domain: 'target.test' }],
        http_auth: CONTEXT.http_auth,
        user_agent: CONTEXT.user_agent,
        locale: CONTEXT.locale,
      });
      expect((await call('DELETE', api(`/v1/watch/${id}`))).status).toBe(200);
    } finally {
      await worker.close();
    }
  });
});
