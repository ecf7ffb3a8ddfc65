import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobContent, BlobStore, SignedUrl } from './blob-store';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  /** Endpoint clients reach (e.g. MinIO's public address) when it differs from the internal one. */
  publicEndpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

function clientConfig(options: S3StoreOptions, endpoint: string | undefined): S3ClientConfig {
  return {
    region: options.region,
    endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Fail fast on an unreachable store instead of retrying for a minute.
    maxAttempts: 2,
  };
}

/** S3/MinIO blob store. Image URLs are presigned GetObject URLs, fresh on every call. */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly signer: S3Client;

  constructor(
    private readonly options: S3StoreOptions,
    /** The clock URLs are signed and old objects judged by (tests pass one). */
    private readonly now: () => number = Date.now,
  ) {
    this.client = new S3Client(clientConfig(options, options.endpoint));
    this.signer = options.publicEndpoint ? new S3Client(clientConfig(options, options.publicEndpoint)) : this.client;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<BlobContent> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
    if (!(object.Body instanceof Readable)) throw new Error(`no body for ${key}`);
    return { body: object.Body, size: object.ContentLength, contentType: object.ContentType ?? 'application/octet-stream' };
  }

  async signedUrl(key: string, options: { ttlSeconds: number }): Promise<SignedUrl> {
    const signedAt = this.now();
    const url = await getSignedUrl(this.signer, new GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: options.ttlSeconds,
      signingDate: new Date(signedAt),
    });
    return { url, expiresAt: signedAt + options.ttlSeconds * 1000 };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  async sweep(prefix: string, maxAgeMs: number): Promise<number> {
    const cutoff = this.now() - maxAgeMs;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const old = (page.Contents ?? []).filter((object) => object.Key && object.LastModified && object.LastModified.getTime() < cutoff);
      if (old.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.options.bucket,
            Delete: { Objects: old.map((object) => ({ Key: object.Key })), Quiet: true },
          }),
        );
        removed += old.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  destroy(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
