/**
 * Content extraction past CONTENT_TIMEOUT, through the gateway and a parse worker: a scrape of a
 * page that never finishes processing answers 422 CONTENT_TOO_COMPLEX, a crawl lists it in
 * error_data and completes its other pages, and the worker's content threads carry on.
 */
import { startFixtureSite, type FixtureSite, stallingContentWorkers } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';

type Json = Record<string, unknown>;
const html = (title: string, body: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

describe('content deadline in scrape and crawl jobs', () => {
  let stack: ServiceStack;
  let site: FixtureSite;

  beforeAll(async () => {
    stack = await startServiceStack(
      { CONTENT_TIMEOUT: '2s' },
      {},
      {
        contentWorkers: stallingContentWorkers(new SharedArrayBuffer(4)),
      },
    );
    site = await startFixtureSite();
    const serve = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    site.route('/', serve(html('Home', '<p><a href="/stall">stall</a> <a href="/light">light</a></p>')));
    site.route('/stall', serve('<html><head><title>Stall</title></head><body data-test-stall><p>never</p></body></html>'));
    site.route('/light', serve(html('Light', '<p>A light page beside it.</p>')));
  }, 60_000);
  afterAll(async () => {
    await site?.close();
    await stack?.close();
  });

  it('a scrape answers 422 CONTENT_TOO_COMPLEX with a clear message', async () => {
    const response = await getJson(`${stack.origin}/v1/scrape?url=${encodeURIComponent(`${site.origin}/stall`)}&fresh=true`);
    expect(response.status).toBe(422);
    expect(response.json).toEqual({
      success: false,
      code: 'CONTENT_TOO_COMPLEX',
      error: `Processing the content of ${site.origin}/stall did not finish within 2000 ms; the page is too large or too complex`,
    });
    const light = await getJson(`${stack.origin}/v1/scrape?url=${encodeURIComponent(`${site.origin}/light`)}&fresh=true`);
    expect(light.status).toBe(200);
    expect(light.json.content).toContain('A light page beside it.');
  });

  it('a crawl skips the page with the error and completes the others', async () => {
    const created = await postJson(`${stack.origin}/v1/crawl`, { url: `${site.origin}/`, depth: 1, link_limit: 5 });
    expect(created.status).toBe(202);
    const [final] = (
      await pollUntil(
        () => getJson(`${stack.origin}/v1/crawl/${created.json.job_id as string}`).then((r) => r.json),
        (v) => v.status !== 'processing',
        60_000,
      )
    ).slice(-1);
    expect(final).toMatchObject({ status: 'completed' });
    const data = final!.data as Json;
    expect(Object.keys(data.crawl_data as Json).sort()).toEqual([`${site.origin}/`, `${site.origin}/light`]);
    expect(data.error_data).toEqual({ [`${site.origin}/stall`]: expect.stringContaining('did not finish within 2000 ms') });
    expect(data.statistics).toEqual({ total_pages: 3, successful_pages: 2, failed_pages: 1 });
  });
});
