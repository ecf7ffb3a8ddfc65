/**
 * Starts the real servers the integration and process tiers use: a private redis-server and an
 * s3rver, each on a free loopback port, and hands their addresses to the test workers through the
 * environment. The unit tier has no global setup: a unit test that asks for Redis fails.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedisServer } from './redis-server';

export const TEST_BUCKET = 'sitelens-test';

export default async function globalSetup(): Promise<void> {
  // The integration and process tiers both name this setup; one run of servers serves both.
  if ((globalThis as Record<string, unknown>).__SITELENS_TEST_STATE__) return;
  const root = mkdtempSync(path.join(tmpdir(), 'sitelens-test-'));
  const state: { redis?: ChildProcess; s3?: { close(): Promise<void> } } = {};

  if (!process.env.TEST_REDIS_URL) {
    const redis = await startRedisServer({ dir: root });
    state.redis = redis.child;
    process.env.TEST_REDIS_URL = redis.url;
  }

  if (!process.env.TEST_S3_ENDPOINT) {
    const S3rver = (await import('s3rver')).default;
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: path.join(root, 's3'),
      configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
    });
    const address = await s3.run();
    state.s3 = s3;
    process.env.TEST_S3_ENDPOINT = `http://127.0.0.1:${address.port}`;
    process.env.TEST_S3_BUCKET = TEST_BUCKET;
  }
  process.env.TEST_TMP_ROOT = root;
  (globalThis as Record<string, unknown>).__SITELENS_TEST_STATE__ = state;
}
