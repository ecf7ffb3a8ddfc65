import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { reply } from '@sitelens/testkit/scripted-openai';
import { startParseStack, type ParseStack } from './support/parse-stack';

const KEYS = { free: 'parse-free-key-0001', pro: 'parse-pro-key-00001' };

describe('POST /v1/parse in hosted mode: plan caps', () => {
  let stack: ParseStack;
  beforeAll(async () => {
    stack = await startParseStack({ env: { MODE: 'hosted', API_KEYS: `${KEYS.free}:free,${KEYS.pro}:pro` } });
    stack.model.respondWith(() => reply.json({ title: 'a post' }));
  });
  afterAll(() => stack.close());

  const parse = (key: string, body: Record<string, unknown>) =>
    postJson(`${stack.gateway.origin}/v1/parse`, body, { authorization: `Bearer ${key}` });
  const prompt = () => `Crawl ${stack.site.urls.blog} for every post title`;

  it('needs a key', async () => {
    const response = await postJson(`${stack.gateway.origin}/v1/parse`, { prompt: prompt() });
    expect(response.status).toBe(401);
  });

  it.each([
    ['free', KEYS.free, 6, 5],
    ['pro', KEYS.pro, 51, 50],
  ])('refuses max_pages above the %s plan cap with 403 PLAN_LIMIT naming it', async (plan, key, asked, cap) => {
    const response = await parse(key, { prompt: prompt(), max_pages: asked });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ success: false, code: 'PLAN_LIMIT', workflow_status: 'failed', pages_processed: 0 });
    expect(response.json.error).toBe(`max_pages ${asked} exceeds the ${plan} plan's limit of ${cap} pages per request`);
  });

  it('refuses streaming on the free plan', async () => {
    const response = await parse(KEYS.free, { prompt: prompt(), stream: true });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ code: 'PLAN_LIMIT', workflow_status: 'failed' });
    expect(response.json.error).toMatch(/Streaming is not available on the free plan/);
  });

  it('applies the caps to async requests too, and lowers the default to the cap', async () => {
    expect((await parse(KEYS.free, { prompt: prompt(), max_pages: 6, async: true })).status).toBe(403);
    const created = await parse(KEYS.free, { prompt: prompt(), async: true });
    expect(created.status).toBe(202);
    const job = await stack.gateway.deps.queues.parse.getJob(created.json.job_id as string);
    expect(job?.data.request).toMatchObject({ max_pages: 5 });
  });

  it('streams on the pro plan, with rate-limit headers', async () => {
    const response = await fetch(`${stack.gateway.origin}/v1/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.pro}` },
      body: JSON.stringify({ prompt: prompt(), stream: true, max_pages: 50 }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-ratelimit-limit')).toBe('100');
    const text = await response.text();
    expect(text).toMatch(/"workflow_status":"completed"/);
  });

  it('shows an async parse job only to the key that created it', async () => {
    const created = await parse(KEYS.pro, { prompt: prompt(), async: true, max_pages: 2 });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    const follow = (key: string, path: string) => getJson(`${stack.gateway.origin}${path}`, { authorization: `Bearer ${key}` });
    for (const path of [`/v1/parse/${jobId}`, `/v1/parse?job_id=${jobId}`]) {
      expect([200, 202]).toContain((await follow(KEYS.pro, path)).status);
      const other = await follow(KEYS.free, path);
      expect(other.status).toBe(404);
      expect(other.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });
});
