/**
 * Where a screenshot job's time goes: every phase of a completed job is booked once in the
 * worker's sitelens_screenshot_phase_seconds histogram (what operators and bench/screenshot read).
 */
import { Queue, QueueEvents } from 'bullmq';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@sitelens/config';
import { QUEUES, screenshotCreateRequest } from '@sitelens/contracts';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { chromePath, startFixtureSite, testRedisUrl, uniquePrefix, type FixtureSite } from '@sitelens/testkit';
import { startScreenshotWorker, type RunningScreenshotWorker } from '../src';

const PHASES = ['queued', 'gate', 'slot', 'context', 'page', 'setup', 'navigate', 'wait', 'capture', 'metadata', 'release', 'store'];

describe('screenshot phase metrics', () => {
  let site: FixtureSite;
  let worker: RunningScreenshotWorker;
  let queue: Queue;
  let events: QueueEvents;
  const metrics = createMetrics({ service: 'phases-test', collectDefaults: false });

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Phases</h1>'));
    const prefix = uniquePrefix('shot-phases');
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      ROLE: 'all',
      CHROME_PATH: chromePath(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitelens-phases-')),
      SCREENSHOT_CONCURRENCY: '1',
    });
    worker = await startScreenshotWorker(config, createLogger({ level: 'silent', service: 'test' }), metrics);
    queue = new Queue(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
    events = new QueueEvents(QUEUES.screenshot, { connection: { url: testRedisUrl() }, prefix });
    await events.waitUntilReady();
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    await site?.close();
  });

  it('books each phase of a completed job once', async () => {
    const request = screenshotCreateRequest.parse({ url: `${site.origin}/` });
    const job = await queue.add('screenshot', { request, timeoutSeconds: request.timeout, acceptedAt: Date.now() });
    await job.waitUntilFinished(events, 60_000);
    const histogram = (await metrics.screenshotPhases.get()).values;
    const counts = Object.fromEntries(
      histogram.filter((v) => v.metricName === 'sitelens_screenshot_phase_seconds_count').map((v) => [v.labels.phase, v.value]),
    );
    expect(counts).toEqual(Object.fromEntries(PHASES.map((phase) => [phase, 1])));
    const navigate = histogram.find((v) => v.metricName === 'sitelens_screenshot_phase_seconds_sum' && v.labels.phase === 'navigate');
    expect(navigate?.value).toBeGreaterThan(0);
  });
});
