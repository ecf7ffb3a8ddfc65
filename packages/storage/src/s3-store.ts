import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore, SignedUrl } from './blob-store';

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

  constructor(private readonly options: S3StoreOptions) {
    this.client = new S3Client(clientConfig(options, options.endpoint));
    this.signer = options.publicEndpoint ? new S3Client(clientConfig(options, options.publicEndpoint)) : this.client;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.options.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async signedUrl(key: string, options: { ttlSeconds: number }): Promise<SignedUrl> {
    const url = await getSignedUrl(this.signer, new GetObjectCommand({ Bucket: this.options.bucket, Key: key }), {
      expiresIn: options.ttlSeconds,
    });
    return { url, expiresAt: Date.now() + options.ttlSeconds * 1000 };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }

  destroy(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
