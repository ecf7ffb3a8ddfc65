/**
 * Job results live in the blob store, not in Redis: a processor saves its result and returns a
 * small reference (what BullMQ keeps in the job hash and writes to the event stream); whoever
 * shows the job loads the result through the reference. A value that is not a reference (a
 * small result, or a job from before results moved) is its own result.
 */
import { randomUUID } from 'node:crypto';
import { Unavailable, type StoredResultRef } from '@sitelens/contracts';
import type { BlobStore } from './blob-store';

/** Every stored result lives under this key prefix (the retention sweep removes old ones). */
export const RESULTS_KEY_PREFIX = 'results/';

export type { StoredResultRef };

export function isStoredResultRef(value: unknown): value is StoredResultRef {
  if (value === null || typeof value !== 'object') return false;
  const ref = (value as Partial<StoredResultRef>).stored_result;
  return ref !== null && typeof ref === 'object' && typeof ref.key === 'string' && ref.key.startsWith(RESULTS_KEY_PREFIX);
}

/** Writes a job's result to the store and returns the reference the job should return. */
export async function saveJobResult(store: BlobStore, jobId: string | undefined, result: unknown): Promise<StoredResultRef> {
  const body = Buffer.from(JSON.stringify(result));
  // A fresh name per save: job ids repeat across queue prefixes sharing a bucket, and retries.
  const name = `${(jobId ?? 'job').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100)}-${randomUUID()}`;
  const key = `${RESULTS_KEY_PREFIX}${name}.json`;
  await store.put(key, body, 'application/json');
  return { stored_result: { key, bytes: body.length } };
}

/** An object's whole content as UTF-8 text; throws when it does not exist. */
export async function readBlobText(store: BlobStore, key: string): Promise<string> {
  return (await readBlobBytes(store, key))!.toString('utf8');
}

/** A blob's bytes, or undefined when it holds more than `maxBytes` (reading stops there). */
export async function readBlobBytes(store: BlobStore, key: string, maxBytes = Infinity): Promise<Buffer | undefined> {
  const content = await store.get(key);
  if (content.size !== undefined && content.size > maxBytes) {
    content.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of content.body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    total += bytes.length;
    if (total > maxBytes) {
      content.body.destroy();
      return undefined;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** A job's result from what it returned: loaded from the store when it is a reference. */
export async function loadJobResult<R = unknown>(store: BlobStore, returned: unknown): Promise<R> {
  if (!isStoredResultRef(returned)) return returned as R;
  try {
    return JSON.parse(await readBlobText(store, returned.stored_result.key)) as R;
  } catch (error) {
    // A result outlives its job in the store (both expire after JOB_RETENTION): a failed read is
    // the store's trouble, worth a retry.
    throw new Unavailable('The job result could not be read from storage', { cause: error });
  }
}
