import { getEventListeners } from 'node:events';
import { UnrecoverableError, Worker } from 'bullmq';
import { QUEUES, screenshotCreateRequest, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import { startTestGateway, postJson, getJson, type TestGateway } from '@sitelens/testkit/test-gateway';
import { testRedisUrl } from '@sitelens/testkit';

const IMAGE = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

/** The screenshot job lifecycle as clients see it, with a stand-in worker on the real queue. */
describe('screenshot jobs through the gateway', () => {
  let gw: TestGateway;
  let worker: Worker<ScreenshotJobPayload, ScreenshotJobResult> | undefined;
  let release: (() => void) | undefined;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterEach(async () => {
    release?.();
    await worker?.close(true);
    worker = undefined;
  });
  afterAll(async () => {
    await gw.close();
  });

  /** A worker that fails every job with `failedReason` (as the real worker encodes errors). */
  function startFailingWorker(failedReason: string) {
    worker = new Worker<ScreenshotJobPayload, ScreenshotJobResult>(
      QUEUES.screenshot,
      async () => {
        throw new UnrecoverableError(failedReason);
      },
      { connection: { url: testRedisUrl() }, prefix: gw.config.redis.prefix },
    );
  }

  /** A worker that holds each job until `release()` and then stores a tiny image for it. */
  function startStandInWorker() {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    release = open;
    worker = new Worker<ScreenshotJobPayload, ScreenshotJobResult>(
      QUEUES.screenshot,
      async (job) => {
        await gate;
        const key = `screenshots/${job.id}.png`;
        await gw.store.put(key, IMAGE, 'image/png');
        return {
          key,
          contentType: 'image/png',
          metadata: {
            width: 1,
            height: 1,
            format: 'png',
            file_size: IMAGE.length,
            load_time: 12,
            device: job.data.request.device,
            full_page: false,
            truncated: false,
            max_height: 16384,
          },
        };
      },
      { connection: { url: testRedisUrl() }, prefix: gw.config.redis.prefix },
    );
  }

  it('answers 202 processing, long-polls until completion, then hands out a fresh signed URL on every GET', async () => {
    startStandInWorker();
    const created = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/', device: 'mobile' });
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({
      success: true,
      type: 'screenshot',
      status: 'processing',
      url: 'https://example.com/',
      metadata: { device: 'mobile' },
    });
    const jobId = created.json.job_id as string;
    expect(jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const pending = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`);
    expect(pending.status).toBe(202);
    expect(pending.json).toEqual({ success: true, job_id: jobId, status: 'processing' });

    // A short wait that passes returns processing after the wait (a lower bound: load only adds).
    const started = Date.now();
    const waited = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}&wait=1`);
    expect(waited.status).toBe(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    // A long wait returns when the job completes, not when its 60 s wait runs out (the test's own
    // timeout would end first).
    const polled = Date.now();
    const polling = getJson(`${gw.origin}/api/v1/screenshots?job_id=${jobId}&wait=60`);
    release?.();
    const done = await polling;
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ success: true, job_id: jobId, status: 'completed', url: 'https://example.com/' });
    expect(done.json.metadata).toMatchObject({
      width: 1,
      height: 1,
      format: 'png',
      file_size: IMAGE.length,
      load_time: 12,
      device: 'mobile',
    });
    const screenshot = done.json.screenshot as string;
    expect(screenshot.startsWith(`${gw.origin}/v1/files/screenshots/${jobId}.png?`)).toBe(true);
    const expiresAt = Date.parse(done.json.expires_at as string);
    // Signed while the poll ran: between its start (to the second) and now, plus 900 s.
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(polled / 1000) * 1000 + 900_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 900_000);

    const image = await fetch(screenshot);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(IMAGE);

    // Tampering with the signature is refused.
    const tampered = new URL(screenshot);
    tampered.searchParams.set('signature', 'A'.repeat(43));
    const refused = await getJson(tampered.toString());
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ success: false, code: 'SIGNATURE_INVALID' });

    // The job lookup shows the same job with a screenshot URL.
    const lookup = await getJson(`${gw.origin}/v1/crawl/${jobId}`);
    expect(lookup.status).toBe(200);
    expect(lookup.json).toMatchObject({
      success: true,
      job_id: jobId,
      type: 'screenshot',
      status: 'completed',
      data: { url: 'https://example.com/' },
    });
    expect((lookup.json.data as { screenshot: string }).screenshot).toContain(`/v1/files/screenshots/${jobId}.png`);

    // Once the job is gone (retention), its id is 404.
    await (await gw.deps.queues.screenshot.getJob(jobId))?.remove();
    const expired = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`);
    expect(expired.status).toBe(404);
    expect(expired.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    expect((await getJson(`${gw.origin}/v1/crawl/${jobId}`)).status).toBe(404);
  });

  it('holds many long-polls at once: each listens for the shutdown and lets go when answered', async () => {
    startStandInWorker();
    const ids = await Promise.all(
      Array.from(
        { length: 16 },
        async () => (await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/' })).json.job_id as string,
      ),
    );
    const listening = () => getEventListeners(gw.deps.stopping, 'abort').length;
    const polls = ids.map((id) => getJson(`${gw.origin}/v1/screenshots?job_id=${id}&wait=60`));
    // Every poll is waiting (listening) before the jobs are let through.
    while (listening() < ids.length) await new Promise((resolve) => setImmediate(resolve));
    release?.();
    const answers = await Promise.all(polls);
    expect(answers.map((answer) => answer.json.status)).toEqual(ids.map(() => 'completed'));
    expect(listening()).toBe(0);
  });

  it('gives a job its whole capture budget as timeoutSeconds: timeout, delay, the full-page scroll pass and a margin', async () => {
    const plain = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/', timeout: 30 });
    const slow = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/', timeout: 30, delay: 20, full_page: true });
    const seconds = async (id: unknown) => (await gw.deps.queues.screenshot.getJob(id as string))?.data.timeoutSeconds;
    expect(await seconds(plain.json.job_id)).toBe(30 + 10);
    expect(await seconds(slow.json.job_id)).toBe(30 + 20 + 8 + 10);
  });

  it('reports a job no worker finished within its deadline as failed, never processing forever', async () => {
    const request = screenshotCreateRequest.parse({ url: 'https://example.com/', timeout: 5 });
    const old = Date.now() - gw.config.jobQueueTimeoutMs - 60_000;
    const job = await gw.deps.queues.screenshot.add('screenshot', { request, timeoutSeconds: 5, acceptedAt: old });
    const response = await getJson(`${gw.origin}/v1/screenshots?job_id=${job.id}`);
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ success: false, job_id: job.id, status: 'failed', code: 'JOB_TIMEOUT' });
  });

  it('shows a worker failure with its code and message', async () => {
    startFailingWorker('NAVIGATION_FAILED: Could not load https://example.com/: net::ERR_CONNECTION_REFUSED');
    const created = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/' });
    const failed = await getJson(`${gw.origin}/v1/screenshots?job_id=${created.json.job_id as string}&wait=10`);
    expect(failed.status).toBe(200);
    expect(failed.json).toEqual({
      success: false,
      job_id: created.json.job_id,
      status: 'failed',
      code: 'NAVIGATION_FAILED',
      error: 'Could not load https://example.com/: net::ERR_CONNECTION_REFUSED',
    });
  });

  it('keeps the text of an unexpected worker error out of the answer (it stays in the worker log)', async () => {
    startFailingWorker("INTERNAL: Cannot read properties of undefined (reading 'frame') at /srv/app/capture.js:41");
    const created = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/' });
    const jobId = created.json.job_id as string;
    const failed = await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}&wait=10`);
    expect(failed.json).toEqual({ success: false, job_id: jobId, status: 'failed', code: 'INTERNAL', error: 'Internal server error' });
    const lookup = await getJson(`${gw.origin}/v1/crawl/${jobId}`);
    expect(lookup.json).toMatchObject({ success: false, status: 'failed', code: 'INTERNAL', error: 'Internal server error' });
  });

  it('with stream: true answers with the image bytes once the job is done (Supacrawler sync form)', async () => {
    startStandInWorker();
    worker!.once('active', () => release?.()); // the job is queued and picked up: let it finish
    const response = await fetch(`${gw.origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/', stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(IMAGE);
    const jobId = response.headers.get('x-job-id');
    expect((await getJson(`${gw.origin}/v1/screenshots?job_id=${jobId}`)).json).toMatchObject({ status: 'completed' });
  });

  it('with stream: true answers a failed job with its error as JSON', async () => {
    worker = new Worker<ScreenshotJobPayload, ScreenshotJobResult>(
      QUEUES.screenshot,
      async () => {
        const { UnrecoverableError } = await import('bullmq');
        throw new UnrecoverableError('TIMEOUT: https://example.com/ did not finish loading within 5 s (wait_until=load)');
      },
      { connection: { url: testRedisUrl() }, prefix: gw.config.redis.prefix },
    );
    const response = await postJson(`${gw.origin}/v1/screenshots`, { url: 'https://example.com/', stream: true });
    expect(response.status).toBe(408);
    expect(response.json).toMatchObject({ success: false, code: 'TIMEOUT', error: expect.stringMatching(/did not finish loading/) });
  });

  it('rejects a missing job_id and an out-of-range wait with 400', async () => {
    expect((await getJson(`${gw.origin}/v1/screenshots`)).status).toBe(400);
    const wait = await getJson(`${gw.origin}/v1/screenshots?job_id=x&wait=61`);
    expect(wait.status).toBe(400);
    expect(wait.json.error).toMatch(/'wait'/);
  });
});
