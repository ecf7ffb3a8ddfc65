import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { Adblocker, BUNDLED_LIST_PATH } from '../src';
import { silentLogger } from './support/helpers';

describe('Adblocker (engine, no browser)', () => {
  it('adds the maintained EasyList from the filter-list folder when it is there, and works without it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'easylist-'));
    try {
      writeFileSync(path.join(dir, 'easylist.txt'), '[Adblock Plus 2.0]\n! EasyList\n||ads.maintained.example^\n');
      const page = 'https://news.example.com/story';
      const withList = await Adblocker.load({ logger: silentLogger, filterListsDir: dir });
      expect(withList.blocks('https://ads.maintained.example/banner.js', page)).toBe(true);
      // The bundled list still counts.
      expect(withList.blocks('https://securepubads.g.doubleclick.net/tag/js/gpt.js', page)).toBe(true);
      const without = await Adblocker.load({ logger: silentLogger, filterListsDir: path.join(dir, 'missing') });
      expect(without.blocks('https://ads.maintained.example/banner.js', page)).toBe(false);
      expect(without.blocks('https://securepubads.g.doubleclick.net/tag/js/gpt.js', page)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ships an offline list in EasyList syntax that blocks the big ad networks', async () => {
    const text = await readFile(BUNDLED_LIST_PATH, 'utf8');
    expect(text.startsWith('[Adblock Plus 2.0]')).toBe(true);
    const blocker = await Adblocker.load({ logger: silentLogger });
    const page = 'https://news.example.com/story';
    for (const url of [
      'https://securepubads.g.doubleclick.net/tag/js/gpt.js',
      'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js',
      'https://adservice.google.com/adsid/integrator.js',
      'https://c.amazon-adsystem.com/aax2/apstag.js',
      'https://cdn.taboola.com/libtrc/site/loader.js',
      'https://widgets.outbrain.com/outbrain.js',
      'https://static.criteo.net/js/ld/publishertag.js',
      'https://cdn.example.org/ads/banner.js',
    ]) {
      expect([url, blocker.blocks(url, page)]).toEqual([url, true]);
    }
    for (const url of [
      'https://news.example.com/app.js',
      'https://cdn.example.org/lib/react.js',
      'https://fonts.example.net/inter.woff2',
    ]) {
      expect([url, blocker.blocks(url, page)]).toEqual([url, false]);
    }
  });

  describe('refresh from list URLs', () => {
    let server: Server;
    let origin: string;

    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/extra.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('! extra\n||tracker.example^\n');
        else res.writeHead(500).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('adds fetched lists to the bundled one', async () => {
      const blocker = await Adblocker.load({ logger: silentLogger, listUrls: [`${origin}/extra.txt`] });
      expect(blocker.blocks('https://tracker.example/t.js', 'https://site.example/')).toBe(false);
      expect(await blocker.refresh()).toBe(true);
      expect(blocker.blocks('https://tracker.example/t.js', 'https://site.example/')).toBe(true);
      expect(blocker.blocks('https://securepubads.g.doubleclick.net/tag/js/gpt.js', 'https://site.example/')).toBe(true);
    });

    it('keeps the current lists and logs when a list cannot be fetched', async () => {
      const warnings: string[] = [];
      const logger = Object.assign(Object.create(silentLogger) as typeof silentLogger, {
        warn: (_obj: unknown, message: string) => warnings.push(message),
      });
      const blocker = await Adblocker.load({ logger, listUrls: [`${origin}/extra.txt`, `${origin}/broken.txt`] });
      expect(await blocker.refresh()).toBe(false);
      expect(warnings).toEqual(['ad-block list refresh failed; keeping current lists']);
      expect(blocker.blocks('https://tracker.example/t.js', 'https://site.example/')).toBe(false);
      expect(blocker.blocks('https://securepubads.g.doubleclick.net/tag/js/gpt.js', 'https://site.example/')).toBe(true);
    });
  });
});
