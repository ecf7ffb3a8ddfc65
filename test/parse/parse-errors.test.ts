import { postJson } from '@sitelens/testkit/test-gateway';
import { reply } from '@sitelens/testkit/scripted-openai';
import { startParseStack, type ParseStack } from './support/parse-stack';

/** Every parse error body (contract "Common shapes"). */
function expectParseError(json: Record<string, unknown>, code: string, pagesProcessed = 0) {
  expect(json).toMatchObject({ success: false, code, workflow_status: 'failed', pages_processed: pagesProcessed });
  expect(typeof json.error).toBe('string');
  expect(Number.isInteger(json.execution_time)).toBe(true);
}

describe('POST /v1/parse errors (spec section 7)', () => {
  let stack: ParseStack;
  let parseUrl: string;
  let product: string;
  /** The model client's waits between attempts: recorded, not waited out. */
  const waits: number[] = [];
  beforeAll(async () => {
    // PARSE_MAX_RETRIES=2, PARSE_TIMEOUT=2s (see the stack).
    stack = await startParseStack({
      model: {
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    });
    parseUrl = `${stack.gateway.origin}/v1/parse`;
    product = stack.site.urls.product;
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    waits.length = 0;
    stack.model.requests.length = 0;
    stack.model.respondWith(() => reply.error(500, 'the script ran out'));
  });

  async function queuedJobs() {
    return stack.gateway.deps.queues.parse.getJobCounts('waiting', 'active', 'completed', 'failed');
  }

  describe('400', () => {
    it.each([
      ['missing prompt', { schema: { type: 'object' } }, /'prompt': is required/],
      ['empty prompt', { prompt: '   ' }, /'prompt': is required/],
      ['prompt not a string', { prompt: 42 }, /'prompt'/],
      ['schema not an object', { prompt: 'x https://example.com', schema: 'name,price' }, /'schema': must be a JSON schema object/],
      [
        'schema rejected by the meta-schema',
        { prompt: 'x https://example.com', schema: { type: 'object', properties: { age: { type: 'integr' } } } },
        /'schema': not a valid JSON schema: .*properties\/age\/type/,
      ],
      [
        'schema with a bad pattern',
        { prompt: 'x https://example.com', schema: { type: 'string', pattern: '([a-z' } },
        /'schema': pattern at \/pattern cannot be used: error parsing regexp/,
      ],
      [
        'unknown output_format',
        { prompt: 'x https://example.com', output_format: 'xml' },
        /'output_format': must be one of json, csv, markdown/,
      ],
      ['max_pages out of range', { prompt: 'x https://example.com', max_pages: 101 }, /'max_pages': must be between 1 and 100/],
      ['max_depth out of range', { prompt: 'x https://example.com', max_depth: 4 }, /'max_depth': must be between 1 and 3/],
      ['stream not a boolean', { prompt: 'x https://example.com', stream: 'yes' }, /'stream': must be a boolean/],
      ['stream with async', { prompt: 'x https://example.com', stream: true, async: true }, /'async': cannot be combined with stream/],
    ])('%s', async (_name, body, message) => {
      const response = await postJson(parseUrl, body);
      expect(response.status).toBe(400);
      expectParseError(response.json, 'INVALID_REQUEST');
      expect(response.json.error).toMatch(message);
    });

    it('malformed JSON is a 400 with the parse error fields too', async () => {
      const response = await postJson(parseUrl, '{"prompt": ');
      expect(response.status).toBe(400);
      expectParseError(response.json, 'INVALID_REQUEST');
      expect(response.json.error).toBe('Malformed JSON in request body');
    });

    it('ignores unknown fields and takes JSON null as "not given"', async () => {
      stack.model.respondWith(() => reply.json({ name: 'Blue Widget' }));
      const response = await postJson(parseUrl, { prompt: `Get the name from ${product}`, schema: null, max_pages: null, colour: 'red' });
      expect(response.status).toBe(200);
    });
  });

  describe('422', () => {
    it('a prompt without any URL, refused before anything is queued or asked', async () => {
      const before = await queuedJobs();
      const response = await postJson(parseUrl, { prompt: 'Extract the prices of every product on the page' });
      expect(response.status).toBe(422);
      expectParseError(response.json, 'UNPROCESSABLE');
      expect(response.json.error).toMatch(/no URL/);
      expect(await queuedJobs()).toEqual(before);
      expect(stack.model.requests).toHaveLength(0);
    });

    it('every page inaccessible', async () => {
      const response = await postJson(parseUrl, { prompt: `Get the title from ${stack.site.urls.missing}` });
      expect(response.status).toBe(422);
      expectParseError(response.json, 'UNPROCESSABLE');
      expect(response.json.error).toMatch(/None of the pages could be fetched: .*\/gone: Page not found/);
      expect(stack.model.requests).toHaveLength(0);
    });

    it('nothing meaningful extracted', async () => {
      stack.model.respondWith(() => reply.json({ name: null, price: null }));
      const response = await postJson(parseUrl, { prompt: `Get the author from ${product}` });
      expect(response.status).toBe(422);
      expectParseError(response.json, 'UNPROCESSABLE', 1);
      expect(response.json.error).toMatch(/No data/);
    });
  });

  describe('500', () => {
    it('a provider failure that no retry can help fails at once with LLM_ERROR', async () => {
      stack.model.respondWith(() => reply.error(400, 'model does not exist'));
      const response = await postJson(parseUrl, { prompt: `Get the name from ${product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_ERROR', 1);
      expect(response.json.error).toMatch(/1 attempt\).*400/);
      expect(stack.model.requests).toHaveLength(1);
    });

    it('a provider rate limit is retried exactly PARSE_MAX_RETRIES times, waits doubling, then LLM_ERROR', async () => {
      stack.model.respondWith(() => reply.rateLimited());
      const response = await postJson(parseUrl, { prompt: `Get the name from ${product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_ERROR', 1);
      expect(response.json.error).toMatch(/3 attempts\).*429/);
      expect(stack.model.requests).toHaveLength(3);
      // 500 ms then 1000 ms, each plus at most 25% jitter: the waits the client asked for.
      expect(waits).toHaveLength(2);
      const [first, second] = waits as [number, number];
      expect(first).toBeGreaterThanOrEqual(500);
      expect(first).toBeLessThanOrEqual(625);
      expect(second).toBeGreaterThanOrEqual(1_000);
      expect(second).toBeLessThanOrEqual(1_250);
    });

    it('server errors too', async () => {
      stack.model.respondWith(() => reply.serverError(503));
      const response = await postJson(parseUrl, { prompt: `Get the name from ${product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_ERROR', 1);
      expect(stack.model.requests).toHaveLength(3);
    });

    it('a model that never answers: each attempt cut at PARSE_TIMEOUT, retried, then LLM_ERROR', async () => {
      stack.model.respondWith(() => reply.hang());
      const response = await postJson(parseUrl, { prompt: `Get the name from ${product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_ERROR', 1);
      expect(response.json.error).toMatch(/did not answer in time/);
      expect(stack.model.requests).toHaveLength(3);
      // Each attempt was given up by the client (its connection closed unanswered), with the
      // backoff waits between them.
      await stack.model.until(() => stack.model.requests.every((request) => request.abandoned));
      expect(waits).toHaveLength(2);
    }, 30_000);
  });
});

describe('POST /v1/parse without a model', () => {
  const noModel = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, LLM_MODEL: undefined };

  it('answers 500 LLM_NOT_CONFIGURED naming the settings, at once, and the rest keeps working', async () => {
    const stack = await startParseStack({ gatewayEnv: noModel, worker: false });
    try {
      // No worker runs: an answer at all shows the gateway refused it without queueing.
      const response = await postJson(`${stack.gateway.origin}/v1/parse`, { prompt: `Get the name from ${stack.site.urls.product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_NOT_CONFIGURED');
      expect(response.json.error).toMatch(/LLM_MODEL/);
      expect(response.json.error).toMatch(/OPENAI_API_KEY/);
      expect(response.json.error).toMatch(/OPENAI_BASE_URL/);
      expect(await stack.gateway.deps.queues.parse.getJobCounts('waiting')).toMatchObject({ waiting: 0 });
      expect((await fetch(`${stack.gateway.origin}/v1/parse/templates`)).status).toBe(200);
      expect((await fetch(`${stack.gateway.origin}/v1/health`)).status).toBe(200);
    } finally {
      await stack.close();
    }
  });

  it('a worker without a model fails the job with LLM_NOT_CONFIGURED', async () => {
    const stack = await startParseStack({ workerEnv: noModel });
    try {
      const response = await postJson(`${stack.gateway.origin}/v1/parse`, { prompt: `Get the name from ${stack.site.urls.product}` });
      expect(response.status).toBe(500);
      expectParseError(response.json, 'LLM_NOT_CONFIGURED');
      expect(response.json.error).toMatch(/LLM_MODEL/);
    } finally {
      await stack.close();
    }
  });
});
