import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FsBlobStore,
  RESULTS_KEY_PREFIX,
  S3BlobStore,
  isStoredResultRef,
  loadJobResult,
  readBlobBytes,
  saveJobResult,
  type BlobStore,
} from '../src';
import { testS3 } from '@sitelens/testkit';

const result = {
  url: 'https://site.example/',
  crawl_data: { 'https://site.example/': { markdown: '# Hello é ✓', links: [] } },
  error_data: {},
};

function roundTrips(name: string, open: () => BlobStore) {
  describe(`job results in the ${name} store`, () => {
    const store = open();
    afterAll(() => (store as Partial<S3BlobStore>).destroy?.());

    it('saves a result under the results prefix and loads it back through the small reference', async () => {
      const ref = await saveJobResult(store, 'job-1', result);
      expect(isStoredResultRef(ref)).toBe(true);
      expect(ref.stored_result.key.startsWith(RESULTS_KEY_PREFIX)).toBe(true);
      expect(ref.stored_result.bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
      expect(JSON.stringify(ref).length).toBeLessThan(200);
      expect(await loadJobResult(store, ref)).toEqual(result);
    });

    it('gives each save its own key, and sweeps results past the retention', async () => {
      const first = await saveJobResult(store, 'repeat:watch:1', { n: 1 });
      const second = await saveJobResult(store, 'repeat:watch:1', { n: 2 });
      expect(first.stored_result.key).not.toBe(second.stored_result.key);
      expect(first.stored_result.key).toMatch(/^results\/repeat_watch_1-[0-9a-f-]{36}\.json$/);
      expect(await store.sweep(RESULTS_KEY_PREFIX, -1)).toBeGreaterThanOrEqual(2);
      await expect(loadJobResult(store, second)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    });

    it('reads a blob up to a byte cap: its bytes when within it, nothing when over', async () => {
      const bytes = Buffer.alloc(300_000, 7);
      await store.put('capped/blob.bin', bytes, 'application/octet-stream');
      expect(await readBlobBytes(store, 'capped/blob.bin', 300_000)).toEqual(bytes);
      expect(await readBlobBytes(store, 'capped/blob.bin', 299_999)).toBeUndefined();
      expect(await readBlobBytes(store, 'capped/blob.bin')).toEqual(bytes);
    });
  });
}

roundTrips('filesystem', () => new FsBlobStore(mkdtempSync(path.join(tmpdir(), 'sitelens-results-')), 'secret'));
roundTrips('S3', () => {
  const { endpoint, bucket } = testS3();
  return new S3BlobStore({ bucket, region: 'us-east-1', endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
});

describe('a value that is not a reference', () => {
  it('is its own result (small results, jobs from before results moved)', async () => {
    const store = new FsBlobStore(mkdtempSync(path.join(tmpdir(), 'sitelens-results-')), 'secret');
    expect(await loadJobResult(store, { resultId: 'abc' })).toEqual({ resultId: 'abc' });
    expect(await loadJobResult(store, { stored_result: { key: '../etc/passwd', bytes: 1 } })).toEqual({
      stored_result: { key: '../etc/passwd', bytes: 1 },
    });
  });
});
