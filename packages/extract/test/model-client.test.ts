import { appErrorFrom } from './support/app-error';
import { backoffDelay, createModelClient, type ModelClient, type ModelClientDeps } from '../src';
import { reply, startScriptedModel, type ScriptedModel } from '@sitelens/testkit/scripted-openai';

const request = { system: 'Extract data.', user: 'Request: the title\nPage: https://example.com' };
const titleSchema = {
  name: 'extract',
  jsonSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
};

describe('createModelClient', () => {
  let server: ScriptedModel;
  beforeEach(async () => {
    server = await startScriptedModel();
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers plain JSON requests and reports token usage', async () => {
    server.enqueue(reply.json({ title: 'Hello' }));
    const client = createModelClient(server.clientConfig());
    const answer = await client.complete(request);
    expect(JSON.parse(answer.text)).toEqual({ title: 'Hello' });
    expect(answer.attempts).toBe(1);
    expect(answer.usage.input_tokens).toBeGreaterThan(0);
    expect(answer.usage.total_tokens).toBe(answer.usage.input_tokens + answer.usage.output_tokens);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ mode: 'text', path: '/v1/chat/completions' });
    expect(server.requests[0]?.body).toMatchObject({ model: 'scripted-model', temperature: 0 });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('binds the answer to a schema through response_format json_schema by default', async () => {
    server.enqueue(reply.json({ title: 'Bound' }));
    const answer = await createModelClient(server.clientConfig()).complete({ ...request, schema: titleSchema });
    expect(JSON.parse(answer.text)).toEqual({ title: 'Bound' });
    const sent = server.requests[0];
    expect(sent?.mode).toBe('json_schema');
    expect(sent?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extract', schema: titleSchema.jsonSchema, strict: false },
    });
    expect(sent?.schema).toEqual(titleSchema.jsonSchema);
  });

  it('binds the answer through a forced tool call with structuredOutput functionCalling', async () => {
    server.enqueue(reply.json({ title: 'Tool' }));
    const client = createModelClient(server.clientConfig({ structuredOutput: 'functionCalling' }));
    const answer = await client.complete({ ...request, schema: titleSchema });
    expect(JSON.parse(answer.text)).toEqual({ title: 'Tool' });
    expect(server.requests[0]?.mode).toBe('tools');
    expect(server.requests[0]?.body.tool_choice).toEqual({ type: 'function', function: { name: 'extract' } });
  });

  it('retries 429 and 5xx exactly maxRetries times with growing backoff, then throws LLM_ERROR', async () => {
    server.enqueue(
      reply.rateLimited(),
      reply.serverError(500),
      reply.serverError(503),
      reply.rateLimited(),
      reply.json({ title: 'never' }),
    );
    // The waits the client asks for are recorded (not waited out), so load cannot stretch them.
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const client = createModelClient(server.clientConfig({ maxRetries: 3, retryBaseDelayMs: 200 }), { sleep });
    const error = await appErrorFrom(client.complete(request));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/4 attempts/);
    expect(error.message).toMatch(/429/);
    expect(server.requests).toHaveLength(4);

    // Before each new attempt: waits of 200, 400, 800 ms, each plus at most 25% jitter.
    expect(waits).toHaveLength(3);
    waits.forEach((wait, i) => {
      const base = 200 * 2 ** i;
      expect(wait).toBeGreaterThanOrEqual(base);
      expect(wait).toBeLessThanOrEqual(base * 1.25);
    });
  });

  it('succeeds on a retry after server errors', async () => {
    server.enqueue(reply.serverError(502), reply.json({ title: 'Third time' }));
    const answer = await createModelClient(server.clientConfig({ maxRetries: 3 })).complete(request);
    expect(JSON.parse(answer.text)).toEqual({ title: 'Third time' });
    expect(answer.attempts).toBe(2);
  });

  it('makes exactly one attempt with maxRetries 0', async () => {
    server.enqueue(reply.serverError(500), reply.json({ title: 'unused' }));
    const error = await appErrorFrom(createModelClient(server.clientConfig({ maxRetries: 0 })).complete(request));
    expect(error.code).toBe('LLM_ERROR');
    expect(server.requests).toHaveLength(1);
  });

  it('cuts off a hanging attempt at timeoutMs and retries it', async () => {
    server.enqueue(reply.hang(), reply.json({ title: 'After timeout' }));
    const client = createModelClient(server.clientConfig({ maxRetries: 2, timeoutMs: 300, retryBaseDelayMs: 20 }));
    const started = performance.now();
    const answer = await client.complete(request);
    const elapsed = performance.now() - started;
    expect(JSON.parse(answer.text)).toEqual({ title: 'After timeout' });
    expect(answer.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.abandoned).toBe(true); // the client gave up on the hanging attempt
    expect(elapsed).toBeGreaterThanOrEqual(300); // a lower bound only: load makes it later, never earlier
  });

  it('gives up with LLM_ERROR when every attempt times out', async () => {
    server.enqueue(reply.hang(), reply.hang());
    const client = createModelClient(server.clientConfig({ maxRetries: 1, timeoutMs: 200, retryBaseDelayMs: 10 }));
    const error = await appErrorFrom(client.complete(request));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toMatch(/did not answer in time/);
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 404])('fails at once on a non-retryable %i', async (status) => {
    server.enqueue(reply.error(status, `scripted rejection ${status}`), reply.json({ title: 'unused' }));
    const client = createModelClient(server.clientConfig({ maxRetries: 3 }));
    const error = await appErrorFrom(client.complete(request));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toContain(String(status));
    expect(error.message).toMatch(/1 attempt\)/);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps keys a provider echoes out of the error message', async () => {
    server.enqueue(reply.error(401, 'Incorrect API key provided: sk-proj-abcd1234****wxyz. Find your key at ...'));
    const error = await appErrorFrom(createModelClient(server.clientConfig()).complete(request));
    expect(error.message).toContain('401');
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain('abcd1234');
  });

  it('stops without retrying when the caller aborts', async () => {
    server.enqueue(reply.hang(), reply.json({ title: 'unused' }));
    const client = createModelClient(server.clientConfig({ maxRetries: 3, timeoutMs: 5_000 }));
    const controller = new AbortController();
    const answer = client.complete({ ...request, signal: controller.signal });
    await server.until(() => server.requests.length === 1); // abort while the attempt hangs
    controller.abort(new Error('client went away'));
    await expect(answer).rejects.toThrow('client went away');
    expect(server.requests).toHaveLength(1);
  });

  it('counts calls and tokens in the metrics it is given', async () => {
    server.enqueue(reply.serverError(500), reply.json({ title: 'ok' }));
    const calls: Record<string, number> = {};
    const tokens: Record<string, number> = {};
    const metrics = {
      modelCalls: { inc: (labels: { outcome: string }) => (calls[labels.outcome] = (calls[labels.outcome] ?? 0) + 1) },
      modelTokens: { inc: (labels: { kind: string }, n: number) => (tokens[labels.kind] = (tokens[labels.kind] ?? 0) + n) },
    };
    const client = createModelClient(server.clientConfig({ maxRetries: 1 }), {
      metrics: metrics as unknown as ModelClientDeps['metrics'],
    });
    const answer = await client.complete(request);
    expect(calls).toEqual({ server_error: 1, success: 1 });
    expect(tokens).toEqual({ input: answer.usage.input_tokens, output: answer.usage.output_tokens });
  });
});

describe('model configuration', () => {
  it.each([
    [{ model: undefined, apiKey: 'k', baseUrl: undefined }],
    [{ model: 'gpt-4o-mini', apiKey: undefined, baseUrl: undefined }],
    [{ model: '', apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1' }],
  ])('fails with LLM_NOT_CONFIGURED naming the settings for %j', async (settings) => {
    const client: ModelClient = createModelClient({ ...settings, maxRetries: 3, timeoutMs: 1000 });
    expect(client.configured).toBe(false);
    const error = await appErrorFrom(client.complete(request));
    expect(error.code).toBe('LLM_NOT_CONFIGURED');
    expect(error.status).toBe(500);
    for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'LLM_MODEL']) expect(error.message).toContain(name);
  });

  it('is configured with a base URL and no key (local servers)', () => {
    expect(createModelClient({ model: 'llama3', baseUrl: 'http://127.0.0.1:11434/v1', maxRetries: 0, timeoutMs: 1 }).configured).toBe(true);
  });
});

describe('backoffDelay', () => {
  it('doubles the base for each retry and adds at most 25% jitter', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelay(retry, 500, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3].map((retry) => backoffDelay(retry, 500, () => 0.999999))).toEqual([625, 1250, 2500]);
  });
});
