import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { ServerResponse } from 'node:http';
import iconv from 'iconv-lite';
import { TimeoutError, UrlBlocked } from '@sitelens/contracts';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { createSafeFetcher, DEFAULT_USER_AGENT, type SafeFetcher } from '../src/safe-fetch';
import { blockedReason, type Resolver } from '@sitelens/egress';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const deflate = promisify(zlib.deflate);
const deflateRaw = promisify(zlib.deflateRaw);

const html = (res: ServerResponse, body: string | Buffer, headers: Record<string, string> = {}): void =>
  void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

const PAGE = '<html><head><title>Café</title></head><body><p>naïve café — 10 €</p></body></html>';

describe('safe fetch against the fixture site (private URLs allowed)', () => {
  let site: FixtureSite;
  let fetcher: SafeFetcher;
  let seenUserAgent = '';

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/page', (req, res) => {
      seenUserAgent = req.headers['user-agent'] ?? '';
      html(res, PAGE);
    });
    site.route('/r1', (_req, res) => void res.writeHead(301, { location: '/r2?x=1' }).end());
    site.route('/r2', (_req, res) => void res.writeHead(302, { location: `${site.origin}/r3` }).end('moved'));
    site.route('/r3', (_req, res) => void res.writeHead(307, { location: 'page' }).end());
    site.route('/loop', (_req, res) => void res.writeHead(302, { location: '/loop' }).end());
    site.route('/to-ftp', (_req, res) => void res.writeHead(302, { location: 'ftp://example.com/file' }).end());
    site.route('/missing', (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Nope</h1>'));
    site.route('/gzip', async (_req, res) => html(res, await gzip(PAGE), { 'content-encoding': 'gzip' }));
    site.route('/br', async (_req, res) => html(res, await brotli(PAGE), { 'content-encoding': 'br' }));
    site.route('/deflate', async (_req, res) => html(res, await deflate(PAGE), { 'content-encoding': 'deflate' }));
    site.route('/raw-deflate', async (_req, res) => html(res, await deflateRaw(PAGE), { 'content-encoding': 'deflate' }));
    site.route(
      '/latin1-header',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' })
          .end(iconv.encode(PAGE.replace(' — 10 €', ''), 'latin1')),
    );
    site.route(
      '/cp1252-meta',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(iconv.encode(`<html><head><meta charset="windows-1252"></head><body>${PAGE}</body></html>`, 'windows-1252')),
    );
    site.route(
      '/sjis-http-equiv',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(iconv.encode('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>日本語のページ</p>', 'Shift_JIS')),
    );
    site.route('/big', (_req, res) => html(res, Buffer.alloc(2 * 1024 * 1024, 'a')));
    site.route('/endless', (_req, res) => {
      // No content-length: the cap has to stop the stream itself.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'b');
      const pump = () => {
        while (res.write(chunk)) {
          if (res.destroyed) return;
        }
        res.once('drain', pump);
      };
      pump();
    });
    site.route('/bomb', async (_req, res) => html(res, await gzip(Buffer.alloc(64 * 1024 * 1024)), { 'content-encoding': 'gzip' }));
    site.route('/slow', (_req, res) => {
      const timer = setTimeout(() => html(res, PAGE), 3000);
      res.on('close', () => clearTimeout(timer));
    });
    site.route('/slow-body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>');
      const timer = setInterval(() => res.write('<p>tick</p>'), 100);
      res.on('close', () => clearInterval(timer));
    });
    site.route('/image', (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(1000)));
    fetcher = createSafeFetcher({ allowPrivate: true });
  });

  afterAll(async () => {
    await fetcher.close();
    await site.close();
  });

  it('fetches a page with our user agent and decodes UTF-8', async () => {
    const page = await fetcher.fetch(`${site.origin}/page`);
    expect(page).toMatchObject({ url: `${site.origin}/page`, status: 200, contentType: 'text/html', body: PAGE, redirects: [] });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(seenUserAgent).toBe(DEFAULT_USER_AGENT);
  });

  it('follows relative, absolute and path-relative redirects and reports the chain', async () => {
    const page = await fetcher.fetch(`${site.origin}/r1`);
    expect(page.url).toBe(`${site.origin}/page`);
    expect(page.redirects).toEqual([`${site.origin}/r1`, `${site.origin}/r2?x=1`, `${site.origin}/r3`]);
    expect(page.body).toBe(PAGE);
  });

  it('gives up after 10 redirects', async () => {
    await expect(fetcher.fetch(`${site.origin}/loop`)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: expect.stringContaining('Too many redirects'),
    });
  });

  it('refuses a redirect to a non-http scheme', async () => {
    await expect(fetcher.fetch(`${site.origin}/to-ftp`)).rejects.toBeInstanceOf(UrlBlocked);
  });

  it('returns a 404 instead of throwing', async () => {
    const page = await fetcher.fetch(`${site.origin}/missing`);
    expect(page.status).toBe(404);
    expect(page.body).toBe('<h1>Nope</h1>');
  });

  it.each(['/gzip', '/br', '/deflate', '/raw-deflate'])('decompresses %s', async (path) => {
    expect((await fetcher.fetch(`${site.origin}${path}`)).body).toBe(PAGE);
  });

  it('decodes the charset from the header, from <meta charset> and from http-equiv', async () => {
    expect((await fetcher.fetch(`${site.origin}/latin1-header`)).body).toContain('naïve café');
    expect((await fetcher.fetch(`${site.origin}/cp1252-meta`)).body).toContain('naïve café — 10 €');
    expect((await fetcher.fetch(`${site.origin}/sjis-http-equiv`)).body).toContain('日本語のページ');
  });

  it('refuses a body over the cap, by content-length and while streaming', async () => {
    await expect(fetcher.fetch(`${site.origin}/big`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
    });
    await expect(fetcher.fetch(`${site.origin}/endless`, { maxBytes: 512 * 1024 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect((await fetcher.fetch(`${site.origin}/big`)).body).toHaveLength(2 * 1024 * 1024);
  });

  it('caps the decompressed size too (gzip bomb)', async () => {
    await expect(fetcher.fetch(`${site.origin}/bomb`, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('times out a slow server with a 408 TimeoutError', async () => {
    const error = await fetcher.fetch(`${site.origin}/slow`, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(408);
  });

  it('bounds the whole fetch, body included', async () => {
    await expect(fetcher.fetch(`${site.origin}/slow-body`, { timeoutMs: 400 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('passes a caller abort through unchanged', async () => {
    const controller = new AbortController();
    let arrived: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => (arrived = resolve));
    site.route('/held', () => arrived()); // never answers: only the abort ends the fetch
    const pending = fetcher.fetch(`${site.origin}/held`, { signal: controller.signal });
    await atServer;
    controller.abort(new Error('job cancelled'));
    await expect(pending).rejects.toThrow('job cancelled');
  });

  it('does not download binary bodies', async () => {
    const page = await fetcher.fetch(`${site.origin}/image`);
    expect(page).toMatchObject({ status: 200, contentType: 'image/png', body: '' });
  });

  it('reports a refused connection as UPSTREAM_ERROR', async () => {
    const closed = await startFixtureSite();
    const origin = closed.origin;
    await closed.close();
    await expect(fetcher.fetch(`${origin}/`)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('reports a name that does not resolve as UPSTREAM_ERROR', async () => {
    const noDns: Resolver = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const isolated = createSafeFetcher({ allowPrivate: true, resolve: noDns });
    try {
      await expect(isolated.fetch('http://no-such-host.test/')).rejects.toMatchObject({
        code: 'UPSTREAM_ERROR',
        message: expect.stringContaining('Could not resolve host no-such-host.test'),
      });
    } finally {
      await isolated.close();
    }
  });
});

describe('safe fetch in hosted mode (private URLs refused)', () => {
  // The "public" site listens on ::1 and a narrowed policy treats exactly that address as public;
  // the "internal" site on 127.0.0.1 stands for what an attacker wants to reach.
  let publicSite: FixtureSite;
  let internal: FixtureSite;
  let publicOrigin: string;
  let fetcher: SafeFetcher;
  const resolve: Resolver = async (host) => {
    if (host === 'public.test') return [{ address: '::1', family: 6 }];
    if (host === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const policy = (address: string) => (address === '::1' ? null : blockedReason(address));

  beforeAll(async () => {
    internal = await startFixtureSite();
    internal.route('/secret', (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('internal data'));
    publicSite = await startFixtureSite({ host: '::1' });
    publicOrigin = `http://public.test:${publicSite.port}`;
    const redirect = (location: string) => (_req: unknown, res: ServerResponse) => void res.writeHead(302, { location }).end();
    publicSite.route('/ok', (_req, res) => html(res, PAGE));
    publicSite.route('/to-loopback', redirect(`http://127.0.0.1:${internal.port}/secret`));
    publicSite.route('/to-decimal', redirect(`http://2130706433:${internal.port}/secret`));
    publicSite.route('/to-localhost', redirect(`http://localhost:${internal.port}/secret`));
    publicSite.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
    publicSite.route('/to-rebind', redirect(`http://rebind.test:${internal.port}/secret`));
    fetcher = createSafeFetcher({ allowPrivate: false, resolve, policy });
  });

  afterAll(async () => {
    await fetcher.close();
    await publicSite.close();
    await internal.close();
  });

  it('fetches the public site through the connect-time check', async () => {
    const page = await fetcher.fetch(`${publicOrigin}/ok`);
    expect(page.body).toBe(PAGE);
  });

  it.each(['/to-loopback', '/to-decimal', '/to-localhost', '/to-metadata', '/to-rebind'])(
    'refuses the redirect %s and never reaches the internal site',
    async (path) => {
      await expect(fetcher.fetch(`${publicOrigin}${path}`)).rejects.toBeInstanceOf(UrlBlocked);
      expect(internal.hits).toEqual([]);
    },
  );

  it('refuses a name that resolves to a private address when the socket opens', async () => {
    const error = await fetcher.fetch(`http://rebind.test:${internal.port}/secret`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlBlocked);
    expect((error as UrlBlocked).message).toBe('The URL resolves to an address this service may not reach');
    expect(internal.hits).toEqual([]);
  });

  it('refuses the fixture on 127.0.0.1 under the default policy', async () => {
    const strict = createSafeFetcher({ allowPrivate: false });
    try {
      await expect(strict.fetch(`http://127.0.0.1:${internal.port}/secret`)).rejects.toBeInstanceOf(UrlBlocked);
      await expect(strict.fetch(`http://[::1]:${publicSite.port}/ok`)).rejects.toBeInstanceOf(UrlBlocked);
      expect(internal.hits).toEqual([]);
      expect(publicSite.hits.filter((p) => p === '/ok')).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });
});
