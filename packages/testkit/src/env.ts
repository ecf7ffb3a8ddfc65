import { randomUUID } from 'node:crypto';

/** Addresses of the servers the global setup started, and helpers every integration test uses. */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url)
    throw new Error(
      'TEST_REDIS_URL is not set: run this test in the integration or process tier (their global setup starts Redis and s3rver)',
    );
  return url;
}

export function testS3(): { endpoint: string; bucket: string } {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  const bucket = process.env.TEST_S3_BUCKET;
  if (!endpoint || !bucket)
    throw new Error(
      'TEST_S3_ENDPOINT is not set: run this test in the integration or process tier (their global setup starts Redis and s3rver)',
    );
  return { endpoint, bucket };
}

/** A queue prefix no other test uses, so tests never meet in Redis. */
export function uniquePrefix(label = 't'): string {
  return `test-${label}-${randomUUID().slice(0, 8)}`;
}

export function chromePath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}
