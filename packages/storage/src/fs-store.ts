import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { BlobContent, BlobStore, SignedUrl } from './blob-store';

/** Keys are our own (`screenshots/<uuid>.png`); anything else is refused before touching the disk. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..');
}

export const FS_FILE_ROUTE = '/v1/files';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
};

/**
 * Filesystem blob store for the embedded local instance. URLs point at the gateway's file route
 * and carry an expiry and an HMAC of key+expiry; the gateway serves the file only when both hold.
 */
export class FsBlobStore implements BlobStore {
  readonly driver = 'fs' as const;

  constructor(
    private readonly root: string,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  private pathOf(key: string): string {
    if (!isValidKey(key)) throw new Error(`invalid storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, body);
    await rename(temp, file);
  }

  async get(key: string): Promise<BlobContent> {
    const file = this.pathOf(key);
    const info = await stat(file);
    return { body: createReadStream(file), size: info.size, contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
  }

  sign(key: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expires}`).digest('base64url');
  }

  async signedUrl(key: string, options: { ttlSeconds: number; origin: string }): Promise<SignedUrl> {
    const expires = Math.floor(this.now() / 1000) + options.ttlSeconds;
    const signature = this.sign(key, expires);
    const encodedKey = key.split('/').map(encodeURIComponent).join('/');
    return {
      url: `${options.origin}${FS_FILE_ROUTE}/${encodedKey}?expires=${expires}&signature=${signature}`,
      expiresAt: expires * 1000,
    };
  }

  /** Checks a signed request; resolves the file or a reason it is refused. */
  async openSigned(
    key: string,
    expires: string | undefined,
    signature: string | undefined,
  ): Promise<{ ok: true; file: BlobContent } | { ok: false; reason: 'expired' | 'signature' | 'missing' }> {
    if (!isValidKey(key) || !expires || !signature || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'signature' };
    const expected = Buffer.from(this.sign(key, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature' };
    if (Number(expires) * 1000 < this.now()) return { ok: false, reason: 'expired' };
    try {
      return { ok: true, file: await this.get(key) };
    } catch {
      return { ok: false, reason: 'missing' };
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await stat(this.root);
  }

  async sweep(prefix: string, maxAgeMs: number): Promise<number> {
    const cutoff = this.now() - maxAgeMs;
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if ((await stat(full)).mtimeMs < cutoff) {
          await rm(full, { force: true });
          removed += 1;
        }
      }
    };
    await walk(this.pathOf(prefix.replace(/\/+$/, '')));
    return removed;
  }
}
