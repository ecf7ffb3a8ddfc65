/**
 * Starts the real servers integration tests use: a private redis-server and an s3rver, each on
 * a free loopback port, and hands their addresses to the test workers through the environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const TEST_BUCKET = 'sitelens-test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForRedis(port: number): Promise<void> {
  const { Redis } = await import('ioredis');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('redis-server did not start');
}

export default async function globalSetup(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'sitelens-test-'));
  const state: { redis?: ChildProcess; s3?: { close(): Promise<void> } } = {};

  if (!process.env.TEST_REDIS_URL) {
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', root], {
      stdio: 'ignore',
    });
    state.redis = redis;
    await waitForRedis(port);
    process.env.TEST_REDIS_URL = `redis://127.0.0.1:${port}`;
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
