import { compileUserSchema } from '@sitelens/parse-input';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { eventually } from '@sitelens/testkit/hosted';
import { reply } from '@sitelens/testkit/scripted-openai';
import { startParseStack, type ParseStack } from './support/parse-stack';

describe('async parse and GET /v1/parse/<job_id>', () => {
  let stack: ParseStack;
  beforeAll(async () => {
    stack = await startParseStack();
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.model.requests.length = 0;
  });

  it('answers 202 at once, then shows the work progressing, then the full response', async () => {
    stack.model.respondWith(() => reply.json({ title: 'a post' }, { latencyMs: 1_200 }));
    const created = await postJson(`${stack.gateway.origin}/v1/parse`, {
      prompt: `Crawl ${stack.site.urls.blog} for every post title`,
      async: true,
    });
    expect(created.status).toBe(202);
    const jobId = created.json.job_id as string;
    expect(created.json).toEqual({
      success: true,
      job_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'parse',
      status: 'processing',
      status_url: `${stack.gateway.origin}/v1/parse/${jobId}`,
    });

    const seen: Record<string, unknown>[] = [];
    await eventually(
      async () => {
        const view = await getJson(created.json.status_url as string);
        seen.push({ http: view.status, ...view.json });
        return view.status === 200;
      },
      15_000,
      100,
    );
    const extracting = seen.find((view) => view.workflow_status === 'extracting');
    expect(extracting).toMatchObject({
      http: 202,
      status: 'processing',
      success: true,
      job_id: jobId,
      type: 'parse',
      pages_processed: 4,
      total_pages: 4,
      execution_time: expect.any(Number),
    });
    expect(extracting).not.toHaveProperty('partial_results');
    const done = seen.at(-1)!;
    expect(done).toMatchObject({
      http: 200,
      success: true,
      job_id: jobId,
      type: 'parse',
      status: 'completed',
      workflow_status: 'completed',
      pages_processed: 4,
      data: { title: 'a post' },
    });
    // What the Supacrawler Python SDK's wait_for_parse(job_id).data reads: results.data.
    const { http: _http, results, ...flat } = done as Record<string, unknown>;
    expect(results).toMatchObject({ success: true, workflow_status: 'completed', data: { title: 'a post' } });
    expect(results).toEqual(
      expect.objectContaining(Object.fromEntries(Object.entries(flat).filter(([key]) => !['job_id', 'type', 'status'].includes(key)))),
    );

    // The query form the Supacrawler JS client uses answers the same.
    const byQuery = await getJson(`${stack.gateway.origin}/v1/parse?job_id=${jobId}`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.json).toEqual((await getJson(`${stack.gateway.origin}/api/v1/parse/${jobId}`)).json);
  });

  it('shows a failed job with the parse error body', async () => {
    stack.model.respondWith(() => reply.error(404, 'The model `gpt-9` does not exist'));
    const created = await postJson(`${stack.gateway.origin}/v1/parse`, {
      prompt: `Get the name from ${stack.site.urls.product}`,
      async: true,
    });
    const url = created.json.status_url as string;
    await eventually(async () => (await getJson(url)).json.status !== 'processing', 10_000, 100);
    const view = await getJson(url);
    expect(view.status).toBe(200);
    expect(view.json).toEqual({
      success: false,
      error: expect.stringMatching(/language model failed.*404/),
      code: 'LLM_ERROR',
      workflow_status: 'failed',
      pages_processed: 1,
      execution_time: expect.any(Number),
      job_id: created.json.job_id,
      type: 'parse',
      status: 'failed',
    });
  });

  it('validates an async request like a synchronous one', async () => {
    const response = await postJson(`${stack.gateway.origin}/v1/parse`, { prompt: 'no address here', async: true });
    expect(response.status).toBe(422);
  });

  it.each(['/v1/parse/no-such-job', '/api/v1/parse/no-such-job', '/v1/parse?job_id=no-such-job'])('%s is 404', async (path) => {
    const response = await getJson(`${stack.gateway.origin}${path}`);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('GET /v1/parse without job_id is 400', async () => {
    const response = await getJson(`${stack.gateway.origin}/v1/parse`);
    expect(response.status).toBe(400);
  });
});

describe('parse templates and examples', () => {
  let stack: ParseStack;
  beforeAll(async () => {
    stack = await startParseStack({ worker: false });
  });
  afterAll(() => stack.close());

  it.each(['/v1/parse/templates', '/api/v1/parse/templates'])('%s lists the spec 2.6 names', async (path) => {
    const response = await getJson(`${stack.gateway.origin}${path}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.json).sort()).toEqual(['content_types', 'output_formats', 'success', 'templates']);
    expect(response.json.success).toBe(true);
    expect(Object.keys(response.json.templates as object).sort()).toEqual(['schema_based', 'streaming', 'workflow_prompt']);
    for (const text of Object.values(response.json.templates as Record<string, unknown>)) expect(typeof text).toBe('string');
    expect(response.json.content_types).toEqual(['any']);
    expect(response.json.output_formats).toEqual(['json', 'csv', 'markdown']);
  });

  it.each(['/v1/parse/examples', '/api/v1/parse/examples'])('%s lists the spec 2.7 names, each schema compiling', async (path) => {
    const response = await getJson(`${stack.gateway.origin}${path}`);
    expect(response.status).toBe(200);
    expect(response.json.success).toBe(true);
    const examples = response.json.examples as Record<string, { prompt: string; schema: Record<string, unknown> }>;
    expect(Object.keys(examples).sort()).toEqual(['blog_crawl_example', 'product_scrape_example']);
    for (const example of Object.values(examples)) {
      expect(typeof example.prompt).toBe('string');
      expect(() => compileUserSchema(example.schema)).not.toThrow();
    }
  });

  it('documents the parse operations in /openapi.json, the request body included', async () => {
    const doc = (await getJson(`${stack.gateway.origin}/openapi.json`)).json as any;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/parse', '/v1/parse/templates', '/v1/parse/examples', '/v1/parse/{job_id}']),
    );
    const body = doc.paths['/v1/parse'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['prompt']);
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['prompt', 'schema', 'output_format', 'stream', 'max_depth', 'max_pages', 'async']),
    );
  });
});
