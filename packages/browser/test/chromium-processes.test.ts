/**
 * What a job costs Chromium in processes: its incognito context opens a window, and Chromium 156
 * gave every window two omnibox-popup WebUI pages (each in a renderer of its own) and kept a spare
 * renderer no incognito page can use. With those features off, a job starts exactly one renderer.
 */
import type { Browser } from 'puppeteer-core';
import { processTree } from '../src/renderer-watchdog';
import type { BrowserPool } from '../src';
import { testPool } from './support/helpers';

/** Targets that are not the job's pages: browser UI (WebUI popups) and the like. */
async function uiTargets(browser: Browser): Promise<string[]> {
  const session = await browser.target().createCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos
      .filter((target) => target.type !== 'page' && target.type !== 'browser')
      .map((target) => `${target.type} ${target.url}`);
  } finally {
    await session.detach();
  }
}

describe('Chromium processes per job', () => {
  let pool: BrowserPool;

  beforeAll(async () => {
    pool = testPool({ concurrency: 1 });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
  });

  it('a job opens no browser-UI pages and starts one renderer', async () => {
    const page = (html: string) =>
      pool.withContext(
        async ({ context }) => {
          const tab = await context.newPage();
          await tab.setContent(html);
          return { ui: await uiTargets(context.browser()), tree: await processTree(pool.stats().pid!) };
        },
        { timeoutMs: 30_000 },
      );
    // A first job starts what the browser starts once (network and storage services).
    const warm = await page('<p>warm</p>');
    expect(warm.ui).toEqual([]);
    const before = new Set(warm.tree);
    const started = new Set<number>();
    for (const html of ['<p>one</p>', '<p>two</p>', '<p>three</p>']) {
      const job = await page(html);
      expect(job.ui).toEqual([]);
      for (const pid of job.tree) if (!before.has(pid)) started.add(pid);
    }
    // One renderer for each of the three jobs (it was three more each: two WebUI pages and a spare).
    expect(started.size).toBeLessThanOrEqual(3);
    expect(started.size).toBeGreaterThan(0);
  });
});
