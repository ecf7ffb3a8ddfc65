/**
 * Fair share, black-box: a hosted gateway and the real screenshot worker (Chromium, three pages at
 * once) on real Redis. A free key fills every slot its plan allows with a page that never finishes
 * loading, and queues more; a pro key's light screenshot still completes at once, because the free
 * key's extra jobs wait parked instead of holding the third worker slot.
 */
import { hashApiKey, keyIdOf, loadConfig } from '@sitelens/config';
import { PLANS } from '@sitelens/contracts';
import { createLogger } from '@sitelens/telemetry';
import { startScreenshotWorker, type RunningScreenshotWorker } from '@sitelens/screenshot-worker';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import { startFixtureSite, type FixtureSite, chromePath } from '@sitelens/testkit';

const FREE_KEY = 'fair-share-free-key-0001';
const PRO_KEY = 'fair-share-pro-key-00001';
/** Bound of the pro key's screenshot while the free key holds its slots (the figure). */
const PRO_BOUND_MS = 15_000;

describe('fair share between keys (screenshot queue)', () => {
  let site: FixtureSite;
  let gw: TestGateway;
  let worker: RunningScreenshotWorker;
  const neverEnding: Array<() => void> = [];
  let onNeverEnding: () => void = () => undefined;

  beforeAll(async () => {
    site = await startFixtureSite();
    // Headers and the start of a body, then nothing: `load` never fires.
    site.route('/never', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><h1>still loading');
      neverEnding.push(() => res.destroy());
      onNeverEnding();
    });
    site.route('/light', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>light</h1></body></html>');
    });
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: `${FREE_KEY}:free,${PRO_KEY}:pro`, ALLOW_PRIVATE_URLS: 'true' });
    const config = loadConfig({
      REDIS_URL: gw.config.redis.url,
      QUEUE_PREFIX: gw.config.redis.prefix,
      MODE: 'hosted',
      ROLE: 'all',
      ALLOW_PRIVATE_URLS: 'true',
      CHROME_PATH: chromePath(),
      DATA_DIR: gw.config.storage.dataDir,
      SCREENSHOT_CONCURRENCY: '3',
      LOG_LEVEL: 'silent',
    });
    worker = await startScreenshotWorker(config, createLogger({ level: 'silent', service: 'test' }));
  });

  afterAll(async () => {
    for (const end of neverEnding) end();
    await worker?.close();
    await gw?.close();
    await site?.close();
  });

  const post = (key: string, body: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(`${gw.origin}/v1/screenshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'custom', width: 400, height: 300, ...body }),
      signal,
    });

  it('completes a pro key’s light screenshot while a free key holds a never-ending page in every slot it may use', async () => {
    const freeCap = PLANS.free.runningJobs;
    const held = new Promise<void>((resolve) => {
      onNeverEnding = () => {
        if (neverEnding.length >= freeCap) resolve();
      };
    });
    const freeJobs: string[] = [];
    for (let i = 0; i < freeCap + 3; i += 1) {
      const response = await post(FREE_KEY, { url: `${site.origin}/never?n=${i}`, timeout: 120 });
      expect(response.status).toBe(202);
      freeJobs.push(((await response.json()) as { job_id: string }).job_id);
    }
    await held;

    const slots = gw.deps.gates.screenshot.slots;
    const freeOwner = keyIdOf(hashApiKey(FREE_KEY));
    expect((await slots.running(freeOwner)).sort()).toEqual(freeJobs.slice(0, freeCap).sort());
    expect(await slots.parked(freeOwner)).toEqual(freeJobs.slice(freeCap));
    // Parked jobs are not in the waiting list KEDA scales on, and clients see them as processing.
    expect(await gw.deps.queues.screenshot.getWaitingCount()).toBe(0);
    const parkedView = await fetch(`${gw.origin}/v1/screenshots?job_id=${freeJobs[freeCap]}`, {
      headers: { authorization: `Bearer ${FREE_KEY}` },
    });
    expect(((await parkedView.json()) as { status: string }).status).toBe('processing');

    const shot = await post(PRO_KEY, { url: `${site.origin}/light`, stream: true, timeout: 10 }, AbortSignal.timeout(PRO_BOUND_MS));
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    expect((await shot.arrayBuffer()).byteLength).toBeGreaterThan(100);
    // Meanwhile the free key never ran more than its cap.
    expect(neverEnding).toHaveLength(freeCap);
  });
});
