import { Queue, QueueEvents } from 'bullmq';
import { loadConfig } from '@sitelens/config';
import { QUEUES, decodeJobError, screenshotCreateRequest } from '@sitelens/contracts';
import { createLogger } from '@sitelens/telemetry';
import { startScreenshotWorker, type RunningScreenshotWorker } from '../src';
import { startFixtureSite, type FixtureSite } from '../../../test/support/fixture-site';
import { chromePath, testRedisUrl, uniquePrefix } from '../../../test/support/env';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The worker applies the address rule itself: a job that reaches it (whatever the gateway did)
 * for a loopback page fails URL_BLOCKED when private URLs are not allowed.
 */
describe('screenshot worker URL guard', () => {
  const prefix = uniquePrefix('shot-guard');
  let site: FixtureSite;
  let worker: RunningScreenshotWorker;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<h1>private</h1>');
    });
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      MODE: 'hosted',
      ROLE: 'all',
      CHROME_PATH: chromePath(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitelens-guard-')),
      SCREENSHOT_CONCURRENCY: '1',
    });
    expect(config.allowPrivateUrls).toBe(false);
    worker = await startScreenshotWorker(config, createLogger({ level: 'silent', service: 'test' }));
    queue = new Queue(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
    events = new QueueEvents(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await site?.close();
  });

  it('fails a loopback page with URL_BLOCKED and never requests it', async () => {
    const request = screenshotCreateRequest.parse({ url: `${site.origin}/`, device: 'custom', width: 400, height: 300, timeout: 10 });
    const job = await queue.add('screenshot', { request, timeoutSeconds: 10, acceptedAt: Date.now() });
    await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow();
    const failed = await queue.getJob(job.id!);
    expect(decodeJobError(failed?.failedReason).code).toBe('URL_BLOCKED');
    expect(site.hits).not.toContain('/');
  });
});
