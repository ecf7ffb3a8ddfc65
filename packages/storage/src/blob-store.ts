import type { Readable } from 'node:stream';
/** Where images and other job artifacts live. Drivers: S3 (presigned URLs) and filesystem (HMAC URLs). */
export interface SignedUrl {
  url: string;
  /** Epoch ms after which the URL stops working. */
  expiresAt: number;
}

/** An object's bytes as a stream, for answering a request with them. */
export interface BlobContent {
  body: Readable;
  contentType: string;
  size: number | undefined;
}

export interface BlobStore {
  readonly driver: 'fs' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's content; throws when it does not exist. */
  get(key: string): Promise<BlobContent>;
  /**
   * A URL a client can fetch the object from, valid `ttlSeconds`. `origin` is the absolute
   * origin of the gateway as the client sees it (fs driver URLs point back at the gateway).
   */
  signedUrl(key: string, options: { ttlSeconds: number; origin: string }): Promise<SignedUrl>;
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached; used by health checks. */
  ping(): Promise<void>;
  /** Removes objects under `prefix` older than `maxAgeMs` (JOB_RETENTION); returns how many. */
  sweep(prefix: string, maxAgeMs: number): Promise<number>;
}

/** Signed image URLs live 15 minutes (spec 2.3). */
export const SIGNED_URL_TTL_SECONDS = 900;
