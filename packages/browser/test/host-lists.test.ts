import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@sitelens/telemetry';
import { HostList, HostLists } from '../src/host-lists';

/** The bundled lists alone (no filter-list folder, nothing fetched). */
const bundledOnly = (name: 'chats' | 'trackers') =>
  new HostLists({ urls: {}, logger: createLogger({ level: 'silent', service: 't' }) }).get(name);

describe('HostList', () => {
  const list = HostList.parse('# comment\nexample.com\nads.example.org  # trailing comment\nfacebook.com/tr\n\n');

  it('matches a host, its subdomains and path-prefixed entries; nothing else', () => {
    expect(list.size).toBe(3);
    expect(list.matches('https://example.com/a.js')).toBe(true);
    expect(list.matches('https://cdn.example.com/a.js')).toBe(true);
    expect(list.matches('https://notexample.com/a.js')).toBe(false);
    expect(list.matches('https://example.org/')).toBe(false);
    expect(list.matches('https://x.ads.example.org/')).toBe(true);
    expect(list.matches('https://www.facebook.com/tr?id=1')).toBe(true);
    expect(list.matches('https://www.facebook.com/profile')).toBe(false);
    expect(list.matches('not a url')).toBe(false);
  });

  it('the bundled chat and tracker lists load and hold the vendors they name', async () => {
    const [chats, trackers] = await Promise.all([bundledOnly('chats'), bundledOnly('trackers')]);
    for (const url of [
      'https://widget.intercom.io/widget/x',
      'https://js.driftt.com/include/x.js',
      'https://static.zdassets.com/ekr/snippet.js',
      'https://client.crisp.chat/l.js',
      'https://js.usemessages.com/conversations-embed.js',
      'https://embed.tawk.to/x/default',
    ]) {
      expect(chats.matches(url)).toBe(true);
    }
    for (const url of [
      'https://www.google-analytics.com/analytics.js',
      'https://www.googletagmanager.com/gtm.js',
      'https://static.hotjar.com/c/hotjar.js',
      'https://connect.facebook.net/en_US/fbevents.js',
    ]) {
      expect(trackers.matches(url)).toBe(true);
    }
    expect(chats.matches('https://example.com/chat.js')).toBe(false);
    expect(trackers.matches('https://example.com/analytics.js')).toBe(false);
  });
});

describe('HostList formats', () => {
  it('reads hosts-file lines and Adblock domain rules; skips exceptions, cosmetics, wildcards and localhost', () => {
    const list = HostList.parse(
      [
        '! Title: a list',
        '[Adblock Plus 2.0]',
        '0.0.0.0 tracker.one',
        '127.0.0.1 localhost',
        '||tracker.two^',
        '||tracker.three^$third-party',
        '||cdn.four/pixel^',
        '@@||allowed.five^',
        'example.six##.ad',
        '||*.wild^',
        '/banner/*',
        '||limited.seven^$domain=example.com',
        '||own.eight^$third-party',
        '||bucket.nine/beacon^',
      ].join('\n'),
    );
    expect(list.size).toBe(6);
    // `^` after a path: a separator or the end must follow.
    expect(list.matches('https://s3.bucket.nine/beacon')).toBe(true);
    expect(list.matches('https://s3.bucket.nine/beacon?id=1')).toBe(true);
    expect(list.matches('https://s3.bucket.nine/beacon/x.gif')).toBe(true);
    expect(list.matches('https://s3.bucket.nine/beacons-assets/logo.png')).toBe(false);
    expect(list.matches('https://a.tracker.one/x')).toBe(true);
    expect(list.matches('https://tracker.two/x')).toBe(true);
    expect(list.matches('https://tracker.three/x')).toBe(true);
    expect(list.matches('https://cdn.four/pixel?id=1')).toBe(true);
    expect(list.matches('https://cdn.four/app.js')).toBe(false);
    expect(list.matches('https://allowed.five/')).toBe(false);
    expect(list.matches('http://localhost/')).toBe(false);
    expect(list.matches('https://limited.seven/x.js')).toBe(false);
    // $third-party: blocked on other sites' pages, not on the site's own.
    expect(list.matches('https://cdn.own.eight/t.js', 'https://news.example/')).toBe(true);
    expect(list.matches('https://cdn.own.eight/t.js', 'https://www.own.eight/')).toBe(false);
  });

  it('takes EasyPrivacy from the filter-list folder into the tracker list, when the folder has it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lists-'));
    try {
      writeFileSync(
        path.join(dir, 'easyprivacy.txt'),
        '! EasyPrivacy\n||metrics.maintained.example^\n||pixel.maintained.example^$third-party\n',
      );
      const withList = new HostLists({ urls: {}, filterListsDir: dir, logger: createLogger({ level: 'silent', service: 't' }) });
      const trackers = await withList.get('trackers');
      expect(trackers.matches('https://metrics.maintained.example/collect')).toBe(true);
      expect(trackers.matches('https://www.google-analytics.com/analytics.js')).toBe(true);
      expect((await withList.get('chats')).matches('https://metrics.maintained.example/collect')).toBe(false);
      const missing = new HostLists({
        urls: {},
        filterListsDir: path.join(dir, 'nope'),
        logger: createLogger({ level: 'silent', service: 't' }),
      });
      expect((await missing.get('trackers')).size).toBe((await bundledOnly('trackers')).size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HostLists refresh', () => {
  let server: Server;
  let origin: string;
  let broken = false;
  const logger = createLogger({ level: 'silent', service: 'host-lists-test' });

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (broken) return void res.writeHead(503).end();
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(req.url === '/chats.txt' ? '||chat.fetched.example^\n' : '0.0.0.0 track.fetched.example\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('adds fetched lists to the bundled ones, and keeps them when a later fetch fails', async () => {
    const lists = new HostLists({ urls: { chats: [`${origin}/chats.txt`], trackers: [`${origin}/trackers.txt`] }, logger });
    expect((await lists.get('chats')).matches('https://chat.fetched.example/w.js')).toBe(false);
    expect(await lists.refresh()).toEqual(['chats', 'trackers']);
    const chats = await lists.get('chats');
    expect(chats.matches('https://chat.fetched.example/w.js')).toBe(true);
    expect(chats.matches('https://widget.intercom.io/widget/x')).toBe(true);
    expect((await lists.get('trackers')).matches('https://track.fetched.example/p.gif')).toBe(true);

    broken = true;
    expect(await lists.refresh()).toEqual([]);
    expect((await lists.get('chats')).matches('https://chat.fetched.example/w.js')).toBe(true);
  });

  it('is not configured without URLs, and refreshing then changes nothing', async () => {
    const lists = new HostLists({ urls: {}, logger });
    expect(lists.configured).toBe(false);
    expect(await lists.refresh()).toEqual([]);
    expect((await lists.get('trackers')).size).toBe((await bundledOnly('trackers')).size);
  });
});
