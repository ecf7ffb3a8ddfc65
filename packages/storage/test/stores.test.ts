import { mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FsBlobStore, S3BlobStore, SIGNED_URL_TTL_SECONDS } from '../src';
import { testS3 } from '@sitelens/testkit';

const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('filesystem store', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  const root = mkdtempSync(path.join(tmpdir(), 'sitelens-fs-store-'));
  const store = new FsBlobStore(root, 'secret-one', () => now);

  it('signs URLs that expire after the TTL and open only with the right signature', async () => {
    await store.put('screenshots/a.png', PNG_BYTES);
    const signed = await store.signedUrl('screenshots/a.png', { ttlSeconds: SIGNED_URL_TTL_SECONDS, origin: 'http://h:1' });
    expect(signed.expiresAt).toBe(now + 900_000);
    const url = new URL(signed.url);
    expect(url.origin).toBe('http://h:1');
    expect(url.pathname).toBe('/v1/files/screenshots/a.png');
    const expires = url.searchParams.get('expires') ?? undefined;
    const signature = url.searchParams.get('signature') ?? undefined;

    const opened = await store.openSigned('screenshots/a.png', expires, signature);
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      expect(opened.file.size).toBe(PNG_BYTES.length);
      expect(opened.file.contentType).toBe('image/png');
      opened.file.body.destroy();
    }
    // Another key, a changed expiry, a foreign secret: all refused as bad signatures.
    expect(await store.openSigned('screenshots/b.png', expires, signature)).toEqual({ ok: false, reason: 'signature' });
    expect(await store.openSigned('screenshots/a.png', String(Number(expires) + 60), signature)).toEqual({
      ok: false,
      reason: 'signature',
    });
    const foreign = new FsBlobStore(root, 'secret-two', () => now);
    expect(await foreign.openSigned('screenshots/a.png', expires, signature)).toEqual({ ok: false, reason: 'signature' });
    // After the TTL the same URL is expired.
    now += 901_000;
    expect(await store.openSigned('screenshots/a.png', expires, signature)).toEqual({ ok: false, reason: 'expired' });
  });

  it('serves a PDF as application/pdf', async () => {
    await store.put('screenshots/doc.pdf', Buffer.from('%PDF-1.7'));
    expect((await store.get('screenshots/doc.pdf')).contentType).toBe('application/pdf');
  });

  it('reads an object back as a stream with its type and size', async () => {
    const content = await store.get('screenshots/a.png');
    expect(content.contentType).toBe('image/png');
    expect(content.size).toBe(PNG_BYTES.length);
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PNG_BYTES);
    await expect(store.get('screenshots/none.png')).rejects.toThrow();
  });

  it('refuses keys that could leave its folder', async () => {
    expect(await store.openSigned('../etc/passwd', '1', 'x')).toEqual({ ok: false, reason: 'signature' });
    await expect(store.put('../escape.png', PNG_BYTES)).rejects.toThrow(/invalid storage key/);
  });

  it('sweeps files older than the retention under a prefix only', async () => {
    await store.put('screenshots/old.png', PNG_BYTES);
    await store.put('screenshots/new.png', PNG_BYTES);
    await store.put('other/old.png', PNG_BYTES);
    const twoDaysAgo = (now - 48 * 3600_000) / 1000;
    utimesSync(path.join(root, 'screenshots/old.png'), twoDaysAgo, twoDaysAgo);
    utimesSync(path.join(root, 'other/old.png'), twoDaysAgo, twoDaysAgo);
    utimesSync(path.join(root, 'screenshots/new.png'), now / 1000, now / 1000);
    utimesSync(path.join(root, 'screenshots/a.png'), now / 1000, now / 1000);
    expect(await store.sweep('screenshots/', 24 * 3600_000)).toBe(1);
    const kept = await store.signedUrl('screenshots/new.png', { ttlSeconds: 60, origin: 'http://h' });
    const url = new URL(kept.url);
    const reopened = await store.openSigned(
      'screenshots/new.png',
      url.searchParams.get('expires') ?? '',
      url.searchParams.get('signature') ?? '',
    );
    expect(reopened.ok).toBe(true);
    if (reopened.ok) reopened.file.body.destroy();
    const gone = await store.signedUrl('screenshots/old.png', { ttlSeconds: 60, origin: 'http://h' });
    const goneUrl = new URL(gone.url);
    expect(
      await store.openSigned('screenshots/old.png', goneUrl.searchParams.get('expires') ?? '', goneUrl.searchParams.get('signature') ?? ''),
    ).toEqual({
      ok: false,
      reason: 'missing',
    });
  });
});

describe('S3 store (s3rver)', () => {
  const { endpoint, bucket } = testS3();
  const s3Options = { bucket, region: 'us-east-1', endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  const store = new S3BlobStore(s3Options);
  afterAll(() => store.destroy());

  it('stores an object and presigns a GET valid 900 s that serves its bytes', async () => {
    const key = `screenshots/s3-${Date.now()}.png`;
    const signedAt = Date.now();
    const pinned = new S3BlobStore(s3Options, () => signedAt);
    await store.put(key, PNG_BYTES, 'image/png');
    const signed = await pinned.signedUrl(key, { ttlSeconds: SIGNED_URL_TTL_SECONDS });
    pinned.destroy();
    const url = new URL(signed.url);
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/${bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(signed.expiresAt).toBe(signedAt + 900_000);
    const response = await fetch(signed.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG_BYTES);
  });

  it('hands out URLs the store itself refuses once they expire', async () => {
    const key = `screenshots/expiring-${Date.now()}.png`;
    await store.put(key, PNG_BYTES, 'image/png');
    // Signed two minutes ago for one minute: already expired, with no waiting.
    const past = new S3BlobStore(s3Options, () => Date.now() - 120_000);
    const expired = await past.signedUrl(key, { ttlSeconds: 60 });
    past.destroy();
    expect((await fetch((await store.signedUrl(key, { ttlSeconds: 60 })).url)).status).toBe(200);
    expect((await fetch(expired.url)).status).toBe(403);
  });

  it('reads an object back as a stream with its type and size', async () => {
    const key = `screenshots/get-${Date.now()}.png`;
    await store.put(key, PNG_BYTES, 'image/png');
    const content = await store.get(key);
    expect(content.contentType).toBe('image/png');
    expect(content.size).toBe(PNG_BYTES.length);
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PNG_BYTES);
  });

  it('answers ping when the bucket exists and fails when it does not', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    const missing = new S3BlobStore({
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    await expect(missing.ping()).rejects.toThrow();
    missing.destroy();
  });

  it('sweeps objects older than the retention and keeps the rest', async () => {
    const prefix = `sweep-${Date.now()}/`;
    await store.put(`${prefix}one.png`, PNG_BYTES, 'image/png');
    await store.put(`${prefix}two.png`, PNG_BYTES, 'image/png');
    // Nothing is older than an hour yet; everything is older than -1 ms.
    expect(await store.sweep(prefix, 3600_000)).toBe(0);
    expect(await store.sweep(prefix, -1)).toBe(2);
    expect(await store.sweep(prefix, -1)).toBe(0);
  });
});
