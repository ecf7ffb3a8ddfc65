import { createContentWorkerPool, type ContentWorkerPool } from '../src/content/worker-pool';
import { createContentExtractor } from '../src/content/page-content';
import { crawl } from '../src/crawler';
import { startFixtureSite, type FixtureSite, stallingContentWorkers } from '@sitelens/testkit';

const DEEP = 2_000;
const deepPage = `<html><head><title>Deep</title></head><body>${'<div>'.repeat(DEEP)}<p>The bottom of a very deep page.</p>${'</div>'.repeat(DEEP)}</body></html>`;
const stallPage = '<html><head><title>Stall</title></head><body data-test-stall><p>never done</p></body></html>';
const page = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** A pool whose threads stall on the marked page; `started` flips to 1 when one does. */
function stallingPool(size: number, timeoutMs: number): { pool: ContentWorkerPool; started: Int32Array } {
  const shared = new SharedArrayBuffer(4);
  const pool = createContentWorkerPool({ ...stallingContentWorkers(shared, size), timeoutMs });
  return { pool, started: new Int32Array(shared) };
}

async function untilStalled(started: Int32Array): Promise<void> {
  const waiting = Atomics.waitAsync(started, 0, 0);
  if (waiting.async) await waiting.value;
}

describe('deep DOMs', () => {
  it(`flattens ${DEEP} nested divs (${Math.round(deepPage.length / 1024)} KB) and extracts them inline without a stack overflow`, () => {
    const content = createContentExtractor().extract(deepPage, 'https://site.example/deep', { markdown: true, text: true, html: true });
    expect(content.markdown).toContain('The bottom of a very deep page.');
    expect(content.text).toContain('The bottom of a very deep page.');
  });
});

describe('content deadline', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite();
    const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    };
    site.route('/', html(page('Home', '<p><a href="/deep">deep</a> <a href="/stall">stall</a> <a href="/light">light</a></p>')));
    site.route('/deep', html(deepPage));
    site.route('/stall', html(stallPage));
    site.route('/light', html(page('Light', '<p>A light page that is quick to read.</p>')));
  });
  afterAll(() => site.close());

  it('skips a page that outlives its deadline, with a clear error, while the deep and light pages complete', async () => {
    const { pool } = stallingPool(2, 3_000);
    try {
      const result = await crawl(
        { url: `${site.origin}/`, depth: 1, limit: 10, useSitemap: false, respectRobots: false },
        { allowPrivate: true, processor: pool },
      );
      expect(Object.keys(result.crawl_data).sort()).toEqual([`${site.origin}/`, `${site.origin}/deep`, `${site.origin}/light`]);
      expect(result.crawl_data[`${site.origin}/deep`]!.markdown).toContain('The bottom of a very deep page.');
      expect(result.crawl_data[`${site.origin}/light`]!.markdown).toContain('A light page that is quick to read.');
      expect(result.error_data).toEqual({
        [`${site.origin}/stall`]: expect.stringMatching(/did not finish within 3000 ms; the page is too large or too complex/),
      });
      expect(result.statistics).toEqual({ total_pages: 4, successful_pages: 3, failed_pages: 1 });
    } finally {
      await pool.close();
    }
  });

  it('terminates the stalled thread and replaces it', async () => {
    // The deadline runs from the hand-over, so a fresh thread's start (this test's workers compile
    // TypeScript) counts against it: sized for a loaded machine; the stall ends by it either way.
    const { pool, started } = stallingPool(1, 5_000);
    try {
      await pool.extract('<p>warm</p>', 'https://site.example/', {});
      const [before] = pool.threadIds();
      await expect(pool.extract(stallPage, 'https://site.example/stall', { markdown: true })).rejects.toMatchObject({
        code: 'CONTENT_TOO_COMPLEX',
        status: 422,
      });
      expect(Atomics.load(started, 0)).toBe(1);
      expect(pool.threadIds()).not.toContain(before);
      await expect(pool.extract('<p>after</p>', 'https://site.example/', { text: true })).resolves.toMatchObject({ text: 'after' });
      expect(pool.threadIds()).toHaveLength(1);
      expect(pool.threadIds()).not.toContain(before);
    } finally {
      await pool.close();
    }
  });

  it('aborting a crawl terminates the thread working on its page', async () => {
    const { pool, started } = stallingPool(1, 600_000);
    const controller = new AbortController();
    try {
      const running = crawl(
        { url: `${site.origin}/stall`, depth: 0, useSitemap: false, respectRobots: false, signal: controller.signal },
        { allowPrivate: true, processor: pool },
      );
      await untilStalled(started);
      const busy = pool.threadIds();
      expect(busy).toHaveLength(1);
      controller.abort(new Error('client went away'));
      await expect(running).rejects.toThrow('client went away');
      expect(pool.threadIds()).toEqual([]);
      // The pool carries on with a new thread.
      await expect(pool.extract('<p>next</p>', 'https://site.example/', { text: true })).resolves.toMatchObject({ text: 'next' });
      expect(pool.threadIds()).not.toContain(busy[0]);
    } finally {
      await pool.close();
    }
  });
});
