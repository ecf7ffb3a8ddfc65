/**
 * End to end: gateway and screenshot worker as separate processes, S3 driver against s3rver,
 * a local fixture page. The image behind the presigned URL is decoded and checked.
 */
import { PNG } from 'pngjs';
import {
  startFixtureSite,
  type FixtureSite,
  freePort,
  startService,
  waitForHttp,
  type ServiceProcess,
  testRedisUrl,
  testS3,
  uniquePrefix,
  chromePath,
} from '@sitelens/testkit';

type Json = Record<string, any>;

describe('screenshot jobs across processes (S3 driver)', () => {
  let site: FixtureSite;
  let gateway: ServiceProcess;
  let worker: ServiceProcess;
  let origin: string;

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body style="margin:0;background:rgb(0,128,255)"><h1>Sitelens e2e</h1></body></html>');
    });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const s3 = testS3();
    const env = {
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: uniquePrefix('e2e'),
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      CHROME_PATH: chromePath(),
      HTTP_ADDR: `127.0.0.1:${port}`,
      OPS_HTTP_ADDR: '127.0.0.1:0',
    };
    gateway = startService({ ...env, ROLE: 'gateway' });
    worker = startService({ ...env, ROLE: 'screenshot-worker' });
    await waitForHttp(`${origin}/v1/health`);
  });

  afterAll(async () => {
    await gateway?.stop();
    await worker?.stop();
    await site?.close();
  });

  it('creates a job, completes it in the worker process and serves the image through a presigned URL', async () => {
    const created = await fetch(`${origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/`, device: 'custom', width: 800, height: 600 }),
    });
    expect(created.status).toBe(202);
    const { job_id: jobId } = (await created.json()) as { job_id: string };

    const got = await fetch(`${origin}/v1/screenshots?job_id=${jobId}&wait=45`);
    const body = (await got.json()) as Json;
    if (body.status !== 'completed') throw new Error(`job ended ${JSON.stringify(body)}\n${worker.output()}`);
    expect(got.status).toBe(200);
    expect(body).toMatchObject({ success: true, job_id: jobId, status: 'completed', url: `${site.origin}/` });
    expect(body.metadata).toMatchObject({ width: 800, height: 600, format: 'png', device: 'custom' });
    expect(body.screenshot).toMatch(
      new RegExp(`^${testS3().endpoint}/${testS3().bucket}/screenshots/${jobId}\\.png\\?.*X-Amz-Expires=900`),
    );

    const image = await fetch(body.screenshot);
    expect(image.status).toBe(200);
    const png = PNG.sync.read(Buffer.from(await image.arrayBuffer()));
    expect([png.width, png.height]).toEqual([800, 600]);
    expect(body.metadata.file_size).toBe(Number(image.headers.get('content-length')));
    // The page background is rgb(0,128,255): sample a pixel far from the heading.
    const at = (x: number, y: number) => Array.from(png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3));
    expect(at(700, 500)).toEqual([0, 128, 255]);

    // A second GET hands out a fresh signature; the job lookup shows the same job.
    const again = (await (await fetch(`${origin}/v1/screenshots?job_id=${jobId}`)).json()) as Json;
    expect(again.screenshot).not.toBe(undefined);
    const lookup = (await (await fetch(`${origin}/api/v1/crawl/${jobId}`)).json()) as Json;
    expect(lookup).toMatchObject({
      success: true,
      job_id: jobId,
      type: 'screenshot',
      status: 'completed',
      data: { url: `${site.origin}/` },
    });
    expect(lookup.data.screenshot).toContain(`screenshots/${jobId}.png`);
  });

  it('fails a job whose page cannot be reached, with a clear error', async () => {
    const closedPort = await freePort();
    const created = await fetch(`${origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${closedPort}/`, timeout: 10 }),
    });
    const { job_id: jobId } = (await created.json()) as { job_id: string };
    const got = await fetch(`${origin}/v1/screenshots?job_id=${jobId}&wait=30`);
    const body = (await got.json()) as Json;
    expect(got.status).toBe(200);
    expect(body).toMatchObject({ success: false, job_id: jobId, status: 'failed', code: 'NAVIGATION_FAILED' });
    expect(body.error).toMatch(/ERR_CONNECTION_REFUSED/);
  });
  it('on SIGTERM the worker finishes the job it is running, then exits cleanly', async () => {
    const created = await fetch(`${origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/`, device: 'custom', width: 400, height: 300, delay: 3 }),
    });
    const { job_id: jobId } = (await created.json()) as { job_id: string };
    // Wait until the worker holds the job (the page is loading or the delay is running).
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const health = (await (await fetch(`${origin}/v1/health`)).json()) as Json;
      if (health.components.queues.screenshot.active === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const exited = worker.stop('SIGTERM');
    const body = (await (await fetch(`${origin}/v1/screenshots?job_id=${jobId}&wait=30`)).json()) as Json;
    expect(body).toMatchObject({ success: true, status: 'completed', metadata: { width: 400, height: 300 } });
    expect(await exited).toBe(0);
  });
});
