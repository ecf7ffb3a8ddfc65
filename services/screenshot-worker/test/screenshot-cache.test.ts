/**
 * cache_ttl: an identical request by the same key within the TTL completes at once with the stored
 * image. Shown without any clock: once the first capture is done the worker is stopped, and the
 * identical request still completes (nothing could have captured it), while a different one, or one
 * without cache_ttl, stays queued.
 */
import { chromePath, startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { getJson, postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import { createLogger } from '@sitelens/telemetry';
import { startScreenshotWorker, type RunningScreenshotWorker } from '../src';

describe('screenshot cache_ttl', () => {
  let site: FixtureSite;
  let gw: TestGateway;
  let worker: RunningScreenshotWorker | undefined;

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Cached</h1>'));
    gw = await startTestGateway({ CHROME_PATH: chromePath(), SCREENSHOT_CONCURRENCY: '1' });
    worker = await startScreenshotWorker(gw.config, createLogger({ level: 'silent', service: 'test' }));
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await gw?.close();
    await site?.close();
  });

  const request = (fields: Record<string, unknown> = {}) => ({
    url: `${site.origin}/`,
    device: 'custom',
    width: 400,
    height: 300,
    cache_ttl: 600,
    ...fields,
  });
  const create = async (fields: Record<string, unknown> = {}) => {
    const response = await postJson(`${gw.origin}/v1/screenshots`, request(fields));
    expect(response.status).toBe(202);
    return response.json.job_id as string;
  };

  it("answers an identical request from the first one's image, and nothing else", async () => {
    const first = await getJson(`${gw.origin}/v1/screenshots?job_id=${await create()}&wait=30`);
    expect(first.json).toMatchObject({ status: 'completed', metadata: { width: 400, height: 300 } });
    expect((first.json.metadata as Record<string, unknown>).cached).toBeUndefined();
    await worker!.close();
    worker = undefined;

    // No worker runs now: only the cache can complete these.
    const again = await getJson(`${gw.origin}/v1/screenshots?job_id=${await create({ timeout: 60 })}`);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      success: true,
      status: 'completed',
      url: `${site.origin}/`,
      metadata: { width: 400, height: 300, cached: true },
    });
    const fileOf = (url: string) => new URL(url).pathname;
    expect(fileOf(again.json.screenshot as string)).toBe(fileOf(first.json.screenshot as string));
    // The generic job lookup sees it too.
    const generic = await getJson(`${gw.origin}/v1/crawl/${again.json.job_id as string}`);
    expect(generic.json).toMatchObject({ type: 'screenshot', status: 'completed' });

    // stream: true answers with the stored image's bytes.
    const streamed = await fetch(`${gw.origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request({ stream: true })),
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('image/png');
    const stored = await fetch(first.json.screenshot as string);
    expect(Buffer.from(await streamed.arrayBuffer())).toEqual(Buffer.from(await stored.arrayBuffer()));

    // A different request, or the same one without cache_ttl, waits for a worker.
    for (const fields of [{ dark_mode: true }, { cache_ttl: 0 }, { cache_ttl: undefined }]) {
      const pending = await getJson(`${gw.origin}/v1/screenshots?job_id=${await create(fields)}`);
      expect(pending.status).toBe(202);
      expect(pending.json).toMatchObject({ status: 'processing' });
    }
  });
});
