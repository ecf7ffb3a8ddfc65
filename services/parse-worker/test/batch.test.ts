/**
 * POST /v1/batch/scrape and its lookup through the real gateway and a parse worker in this process:
 * a 100-URL batch against the local fixture site with a webhook per page, results in the order
 * asked and paged through, a page that fails kept as its error.
 */
import { signWebhookBody } from '@sitelens/egress';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { startHookReceiver, type HookReceiver } from './support/watch-fixtures';

type Json = Record<string, unknown>;
const SECRET = 'batch-test-webhook-secret';
const COUNT = 100;

describe('batch scrape', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  let hooks: HookReceiver;
  const urls = () => Array.from({ length: COUNT }, (_, n) => (n === 7 ? `${site.origin}/missing` : `${site.origin}/item/${n}`));
  const finish = async (jobId: string) =>
    (
      await pollUntil(
        () => getJson(`${stack.origin}/v1/batch/scrape/${jobId}`),
        (r) => r.json.status !== 'processing',
      )
    ).at(-1)!;

  beforeAll(async () => {
    site = await startFixtureSite();
    for (let n = 0; n < COUNT; n++) {
      site.route(
        `/item/${n}`,
        (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              `<html><head><title>Item ${n}</title></head><body><main><h1>Item ${n}</h1><p>Item number ${n} of the catalogue, described at some length for the reader.</p></main></body></html>`,
            ),
      );
    }
    hooks = await startHookReceiver();
    stack = await startServiceStack({ WEBHOOK_SECRET: SECRET });
  });

  afterAll(async () => {
    await stack?.close();
    await hooks?.close();
    await site?.close();
  });

  it('scrapes 100 URLs: results in order, paged, a missing page as its error; a signed webhook per page, then the end', async () => {
    const created = await postJson(`${stack.origin}/v1/batch/scrape`, {
      urls: urls(),
      format: 'markdown',
      webhook_url: hooks.url,
      webhook_events: ['batch.page', 'batch.completed'],
    });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    expect(created.json).toEqual({
      success: true,
      job_id: jobId,
      type: 'batch',
      status: 'processing',
      status_url: `${stack.origin}/v1/batch/scrape/${jobId}`,
    });
    const done = await finish(jobId);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      success: true,
      status: 'completed',
      total: COUNT,
      completed: COUNT - 1,
      failed: 1,
      offset: 0,
      limit: 100,
    });
    const data = done.json.data as Json[];
    expect(data).toHaveLength(COUNT);
    expect(data[0]).toMatchObject({ success: true, url: `${site.origin}/item/0`, title: 'Item 0', metadata: { status_code: 200 } });
    expect(data[0]!.content).toMatch(/^# Item 0\n\nItem number 0 of the catalogue/);
    expect(data[7]).toEqual({
      url: `${site.origin}/missing`,
      success: false,
      error: expect.stringContaining('404'),
      code: 'UPSTREAM_NOT_FOUND',
    });
    expect(data[99]).toMatchObject({ url: `${site.origin}/item/99` });

    const page = await getJson(`${stack.origin}/v1/batch/scrape/${jobId}?offset=40&limit=25`);
    expect(page.json).toMatchObject({ offset: 40, limit: 25, next: 65 });
    expect((page.json.data as Json[]).map((item) => item.url)).toEqual(urls().slice(40, 65));
    const last = await getJson(`${stack.origin}/v1/batch/scrape/${jobId}?offset=90&limit=25`);
    expect(last.json).not.toHaveProperty('next');
    expect(last.json.data).toHaveLength(10);

    await pollUntil(
      async () => hooks.received.map((hook) => (JSON.parse(hook.body) as Json).event),
      (events) => events.includes('batch.completed'),
    );
    for (const hook of hooks.received) expect(hook.headers['x-signature']).toBe(signWebhookBody(hook.body, SECRET));
    const events = hooks.received.map((hook) => JSON.parse(hook.body) as Json);
    const pages = events.filter((event) => event.event === 'batch.page');
    expect(pages).toHaveLength(COUNT);
    expect(new Set(pages.map((event) => event.url))).toEqual(new Set(urls()));
    expect(events.at(-1)).toEqual({
      event: 'batch.completed',
      job_id: jobId,
      type: 'batch',
      status: 'completed',
      total: COUNT,
      completed: COUNT - 1,
      failed: 1,
    });
  });

  it.each([
    ['no urls', { urls: [] }, 'urls'],
    ['more than 1,000 urls', { urls: Array.from({ length: 1_001 }, (_, n) => `https://example.com/${n}`) }, 'urls'],
    ['a url that is not http', { urls: ['ftp://example.com/'] }, 'urls.0'],
    ['webhook_events without webhook_url', { urls: ['https://example.com/'], webhook_events: ['batch.page'] }, 'webhook_events'],
    [
      'an unknown event',
      { urls: ['https://example.com/'], webhook_url: 'https://example.com/h', webhook_events: ['batch.done'] },
      'webhook_events.0',
    ],
  ])('answers 400 naming the field for %s', async (_name, body, field) => {
    const response = await postJson(`${stack.origin}/v1/batch/scrape`, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ success: false, code: 'INVALID_REQUEST', field });
  });

  it('answers 404 for an unknown batch, and for a job of another kind', async () => {
    expect((await getJson(`${stack.origin}/v1/batch/scrape/nope`)).status).toBe(404);
    const crawl = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/item/1`, depth: 1 });
    expect((await getJson(`${stack.origin}/v1/batch/scrape/${crawl.json.job_id as string}`)).status).toBe(404);
  });
});
