import { Queue, QueueEvents } from 'bullmq';
import { loadConfig } from '@sitelens/config';
import { QUEUES, decodeJobError, screenshotCreateRequest } from '@sitelens/contracts';
import { createLogger } from '@sitelens/telemetry';
import { startScreenshotWorker, type RunningScreenshotWorker } from '../src';
import {
  startFixtureSite,
  type FixtureSite,
  startEgressAttack,
  type EgressAttack,
  chromePath,
  testRedisUrl,
  uniquePrefix,
} from '@sitelens/testkit';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A hosted-mode screenshot worker on its own queue prefix, and a queue and its events to drive it. */
interface HostedWorker {
  worker: RunningScreenshotWorker;
  queue: Queue;
  events: QueueEvents;
  close(): Promise<void>;
}

async function startHostedWorker(
  label: string,
  env: Record<string, string>,
  browserDeps: Parameters<typeof startScreenshotWorker>[3] = {},
): Promise<HostedWorker> {
  const prefix = uniquePrefix(label);
  const config = loadConfig({
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    MODE: 'hosted',
    ROLE: 'all',
    CHROME_PATH: chromePath(),
    DATA_DIR: mkdtempSync(path.join(tmpdir(), `sitelens-${label}-`)),
    SCREENSHOT_CONCURRENCY: '1',
    ...env,
  });
  expect(config.allowPrivateUrls).toBe(false);
  const worker = await startScreenshotWorker(config, createLogger({ level: 'silent', service: 'test' }), undefined, browserDeps);
  const queue = new Queue(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
  const events = new QueueEvents(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
  await events.waitUntilReady();
  return {
    worker,
    queue,
    events,
    async close() {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    },
  };
}

/**
 * The worker applies the address rule itself: a job that reaches it (whatever the gateway did)
 * for a loopback page fails URL_BLOCKED when private URLs are not allowed.
 */
describe('screenshot worker URL guard', () => {
  let site: FixtureSite;
  let hosted: HostedWorker;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<h1>private</h1>');
    });
    hosted = await startHostedWorker('shot-guard', {});
    ({ queue, events } = hosted);
  });

  afterAll(async () => {
    await hosted?.close();
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

/**
 * Hosted mode as an attacker with a key meets it: a page on an allowed host (EGRESS_ALLOW stands
 * in for the public internet) that goes after an internal service by every means a page has, and
 * pages that allocate without bound or open windows in a loop. None reaches inside, none takes the
 * worker down, and a light job queued behind them completes.
 */
describe('screenshot worker against hostile pages (hosted mode)', () => {
  let attack: EgressAttack;
  let site: FixtureSite;
  let hosted: HostedWorker;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    attack = await startEgressAttack();
    site = await startFixtureSite({ host: '127.0.0.2' });
    site.route('/heap', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<script>const k = []; for (;;) k.push(new Array(100000).fill(Math.random()));</script>');
    });
    site.route('/light', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>light</h1>'));
    hosted = await startHostedWorker(
      'shot-hostile',
      { EGRESS_ALLOW: '127.0.0.2', PAGE_MEMORY_LIMIT_MB: '384' },
      { resolve: (host) => attack.resolve(host) },
    );
    ({ queue, events } = hosted);
  });

  afterAll(async () => {
    await hosted?.close();
    await site?.close();
    await attack?.close();
  });

  const add = (fields: Record<string, unknown>) => {
    const request = screenshotCreateRequest.parse({ device: 'custom', width: 640, height: 480, timeout: 30, ...fields });
    return queue.add('screenshot', { request, timeoutSeconds: 60, acceptedAt: Date.now() });
  };

  it('captures the attack page while no vector reaches the internal service', async () => {
    const job = await add({ url: attack.attackUrl, wait_for_selector: '#done' });
    await job.waitUntilFinished(events, 60_000);
    const rebind = await add({ url: attack.rebindUrl, wait_for_selector: '#done' });
    await rebind.waitUntilFinished(events, 60_000);
    expect(attack.internal.connections()).toBe(0);
  });

  it('ends the hostile pages (PAGE_CRASHED or complete) and the light job queued behind them completes', async () => {
    const heap = await add({ url: `${site.origin}/heap` });
    const popups = await add({ url: attack.popupUrl, wait_for_selector: '#done' });
    const light = await add({ url: `${site.origin}/light` });
    await expect(heap.waitUntilFinished(events, 60_000)).rejects.toThrow();
    expect(decodeJobError((await queue.getJob(heap.id!))?.failedReason).code).toBe('PAGE_CRASHED');
    expect((await queue.getJob(heap.id!))?.attemptsMade).toBe(1);
    await popups.waitUntilFinished(events, 60_000);
    const result = (await light.waitUntilFinished(events, 60_000)) as { metadata: { width: number } };
    expect(result.metadata.width).toBe(640);
    expect(attack.internal.connections()).toBe(0);
  });
});
