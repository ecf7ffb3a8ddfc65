import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@sitelens/config';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-store';
import { S3BlobStore } from './s3-store';

/**
 * The fs driver's URL signing (and local mode's webhook signing, when WEBHOOK_SECRET is unset)
 * needs a secret shared by every process using the same DATA_DIR. Without a configured one, one is
 * generated once and kept in DATA_DIR under `fileName` (each use its own file: a secret that
 * signs file URLs never signs webhooks), so restarts keep URLs and signatures valid.
 */
export async function localSecret(dataDir: string, configured: string | undefined, fileName = '.signing-secret'): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, fileName);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    // Written aside, then linked into place: the link fails if another process got there first,
    // and no process ever reads a half-written (empty) secret.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(draft, randomBytes(32).toString('base64url'), { mode: 0o600 });
    await link(draft, file).catch(() => undefined);
    await unlink(draft).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}

export async function createBlobStore(storage: Config['storage']): Promise<BlobStore> {
  if (storage.driver === 's3') {
    return new S3BlobStore({
      bucket: storage.s3.bucket,
      region: storage.s3.region,
      endpoint: storage.s3.endpoint,
      publicEndpoint: storage.s3.publicEndpoint,
      accessKeyId: storage.s3.accessKeyId,
      secretAccessKey: storage.s3.secretAccessKey,
      forcePathStyle: storage.s3.forcePathStyle,
    });
  }
  const root = path.resolve(storage.dataDir, 'blobs');
  return new FsBlobStore(root, await localSecret(path.resolve(storage.dataDir), storage.signingSecret));
}

/**
 * The secret that signs webhooks of jobs without an owner (local mode): WEBHOOK_SECRET, or one of
 * its own generated into DATA_DIR (never URL_SIGNING_SECRET). Hosted mode writes nothing there:
 * issued keys have their own secrets, static keys WEBHOOK_SECRET.
 */
export async function localWebhookSecret(config: Pick<Config, 'mode' | 'webhookSecret' | 'storage'>): Promise<string | undefined> {
  if (config.webhookSecret) return config.webhookSecret;
  return config.mode === 'local' ? localSecret(path.resolve(config.storage.dataDir), undefined, '.webhook-secret') : undefined;
}
