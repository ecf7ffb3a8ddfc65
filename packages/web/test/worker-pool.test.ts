import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContentExtractor } from '../src/content/page-content';
import { createContentWorkerPool, type ContentWorkerPool } from '../src/content/worker-pool';
import { crawl } from '../src/crawler';
import { PAGES_ROOT, TS_WORKER_SCRIPT, startBlogSite } from '@sitelens/testkit';

// Tests run the TypeScript worker entry through a small SWC loader; production runs the .js.
const fromSources = {
  workerScript: TS_WORKER_SCRIPT,
  workerData: { entry: path.join(__dirname, '../src/content/content-worker.ts') },
};
const pages = PAGES_ROOT;

describe('content worker pool', () => {
  let pool: ContentWorkerPool;
  beforeAll(() => {
    pool = createContentWorkerPool({ size: 2, ...fromSources });
  });
  afterAll(() => pool.close());

  it('extracts exactly what the inline extractor does, for many pages at once', async () => {
    const inline = createContentExtractor();
    const inputs = ['article.html', 'docs.html', 'js-shell.html', 'article.html', 'docs.html'].map((file) =>
      readFileSync(path.join(pages, file), 'utf8'),
    );
    const request = { markdown: true, text: true, detectJsShell: true };
    const results = await Promise.all(inputs.map((html) => pool.extract(html, 'https://site.example/page', request)));
    expect(results).toEqual(inputs.map((html) => inline.extract(html, 'https://site.example/page', request)));
    expect(results[0]!.markdown).toContain('| North ledge | 12  | 31.4 | 64% |');
    expect(results[2]!.jsShell).toBe(true);
  });

  it('gives the same crawl result as inline extraction', async () => {
    const site = await startBlogSite();
    try {
      const inline = await crawl({ url: `${site.origin}/` }, { allowPrivate: true });
      const pooled = await crawl({ url: `${site.origin}/` }, { allowPrivate: true, processor: pool });
      expect(Object.keys(pooled.crawl_data)).toHaveLength(5);
      expect(pooled).toEqual(inline);
    } finally {
      await site.close();
    }
  });

  it('refuses work after close', async () => {
    const closing = createContentWorkerPool({ size: 1, ...fromSources });
    await closing.close();
    await expect(closing.extract('<p>x</p>', 'https://site.example/', {})).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('a worker that dies', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelens-pool-'));
  const script = path.join(dir, 'crashy-worker.js');
  writeFileSync(
    script,
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (task) => {
       if (task.html === 'crash') process.exit(3);
       parentPort.postMessage({ id: task.id, content: { title: task.html, metadata: { title: task.html }, links: [] } });
     });`,
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails its task and is replaced for the next one', async () => {
    const pool = createContentWorkerPool({ size: 1, workerScript: script });
    try {
      await expect(pool.extract('crash', 'https://site.example/', {})).rejects.toMatchObject({
        code: 'INTERNAL',
        message: 'Content worker stopped: exit code 3',
      });
      await expect(pool.extract('fine', 'https://site.example/', {})).resolves.toMatchObject({ title: 'fine' });
    } finally {
      await pool.close();
    }
  });
});

describe('content worker pool memory bound', () => {
  it('kills only the thread of a task that outgrows its heap, as CONTENT_TOO_COMPLEX, and goes on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hungry-worker-'));
    const script = path.join(dir, 'hungry.js');
    // Answers tasks for "small" pages; for any other it allocates until the heap limit ends it.
    writeFileSync(
      script,
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (task) => {
         if (task.url.endsWith('/small')) return parentPort.postMessage({ id: task.id, content: { title: 'ok', metadata: { title: 'ok' }, links: [] } });
         const hoard = [];
         for (;;) hoard.push(new Array(100000).fill(task.id));
       });`,
    );
    const hungry = createContentWorkerPool({ size: 1, workerScript: script, maxHeapMb: 16, timeoutMs: 60_000 });
    try {
      const error = await hungry.extract('<p>x</p>', 'https://site.example/bomb', { text: true }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CONTENT_TOO_COMPLEX', retryable: false });
      await expect(hungry.extract('<p>x</p>', 'https://site.example/small', { text: true })).resolves.toMatchObject({ title: 'ok' });
    } finally {
      await hungry.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('content worker pool document memory bound', () => {
  it('kills a document thread whose buffers grow past the allowance (outside its heap), as CONTENT_TOO_COMPLEX', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bomb-worker-'));
    const script = path.join(dir, 'bomb.js');
    // A "document" that inflates into buffers forever, as a deflate bomb does.
    writeFileSync(
      script,
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (task) => {
         if (!task.document) return parentPort.postMessage({ id: task.id, content: { title: 'page', metadata: { title: 'page' }, links: [] } });
         const inflated = [];
         for (;;) inflated.push(Buffer.alloc(4 * 1024 * 1024, 1));
       });`,
    );
    const pool = createContentWorkerPool({ size: 1, workerScript: script, maxDocumentGrowthMb: 64, memoryCheckMs: 10, timeoutMs: 60_000 });
    try {
      const error = await pool
        .extractDocument(new Uint8Array(8), 'pdf', 'https://site.example/bomb.pdf', { text: true })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CONTENT_TOO_COMPLEX', message: expect.stringContaining('bomb.pdf') });
      await expect(pool.extract('<p>x</p>', 'https://site.example/page', { text: true })).resolves.toMatchObject({ title: 'page' });
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
