import { parseCancelKey, sleep } from '@sitelens/contracts';
import { reply } from '@sitelens/testkit/scripted-openai';
import { eventually } from '@sitelens/testkit/hosted';
import { byPage, readStream, startParseStack, type ParseStack } from './support/parse-stack';
import { POSTS } from './support/shop-site';

type Chunk = Record<string, any>;

describe('POST /v1/parse: streaming, and clients that go away', () => {
  let stack: ParseStack;
  /** Backoff waits the model client started (it still waits them out). */
  const waits: number[] = [];
  beforeAll(async () => {
    stack = await startParseStack({
      model: {
        sleep: (ms, signal) => {
          waits.push(ms);
          return sleep(ms, signal);
        },
      },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    waits.length = 0;
    stack.model.requests.length = 0;
    const answers = Object.fromEntries(
      POSTS.map((post, i) => [stack.site.urls.posts[i]!, reply.json({ title: post.title }, { latencyMs: 50 })]),
    );
    stack.model.respondWith(byPage(answers, reply.json({ title: 'Road Notes' })));
  });

  function post(body: Record<string, unknown>, headers: Record<string, string> = {}, signal?: AbortSignal) {
    return fetch(`${stack.gateway.origin}/v1/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  }

  const crawlPrompt = () => `Crawl ${stack.site.urls.blog} and extract the title of every post`;

  /** The stages in order, each once, and a page chunk for every page with its data. */
  function expectChunks(chunks: Chunk[]) {
    const last = chunks.at(-1)!;
    const progress = chunks.slice(0, -1);
    for (const chunk of progress) {
      expect(Object.keys(chunk).sort()).toEqual(
        expect.arrayContaining(['success', 'workflow_status', 'pages_processed', 'partial_results']),
      );
      expect(chunk.success).toBe(true);
    }
    const stages = progress.map((chunk) => chunk.workflow_status).filter((status, i, all) => status !== all[i - 1]);
    expect(stages).toEqual(['analyzing', 'crawling', 'extracting', 'formatting']);
    const pages = progress.filter((chunk) => chunk.partial_results.length > 0);
    expect(pages).toHaveLength(4);
    for (const chunk of pages) {
      expect(chunk.workflow_status).toBe('extracting');
      expect(chunk.partial_results).toEqual([{ url: expect.any(String), data: { title: expect.any(String) } }]);
    }
    expect(pages.map((chunk) => chunk.partial_results[0].url).sort()).toEqual([stack.site.urls.blog, ...stack.site.urls.posts].sort());
    // pages_processed grows while crawling, and total_pages shows what was found.
    const crawling = progress.filter((chunk) => chunk.workflow_status === 'crawling').map((chunk) => chunk.pages_processed);
    expect(crawling).toEqual([...crawling].sort((a, b) => a - b));
    expect(crawling.at(-1)).toBe(4);
    expect(progress.at(-1)).toMatchObject({ workflow_status: 'formatting', pages_processed: 4, total_pages: 4 });
    // The last chunk is the complete response.
    expect(last).toMatchObject({
      success: true,
      workflow_status: 'completed',
      pages_processed: 4,
      total_pages: 4,
      errors: [],
      warnings: [],
    });
    expect((last.data as { title: string }[]).map((item) => item.title).sort()).toEqual(
      ['Road Notes', ...POSTS.map((p) => p.title)].sort(),
    );
    expect(last.total_tokens).toBeGreaterThan(0);
  }

  it('answers Server-Sent Events: a data line per stage and per page, the full response last', async () => {
    const response = await post({ prompt: crawlPrompt(), stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    const { text, frames } = await readStream(response, 'sse');
    expect(text.endsWith('\n\n')).toBe(true);
    for (const frame of frames) expect(frame).toMatch(/^data: \{.*\}$/);
    expectChunks(frames.map((frame) => JSON.parse(frame.slice('data: '.length))));
  });

  it('gives the same chunks one JSON per line with Accept: application/x-ndjson', async () => {
    const response = await post({ prompt: crawlPrompt(), stream: true }, { accept: 'application/x-ndjson' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const { text, frames } = await readStream(response, 'ndjson');
    expect(text.endsWith('}\n')).toBe(true);
    expectChunks(frames.map((line) => JSON.parse(line)));
  });

  it('ends the stream with the error body when the parse fails', async () => {
    stack.model.respondWith(() => reply.error(401, 'Incorrect API key provided'));
    const response = await post({ prompt: crawlPrompt(), stream: true });
    expect(response.status).toBe(200);
    const { frames } = await readStream(response, 'sse');
    const chunks = frames.map((frame) => JSON.parse(frame.slice('data: '.length)));
    expect(chunks.map((chunk) => chunk.workflow_status)).toContain('extracting');
    expect(chunks.at(-1)).toEqual({
      success: false,
      error: expect.stringMatching(/language model failed.*401/),
      code: 'LLM_ERROR',
      workflow_status: 'failed',
      pages_processed: 4,
      execution_time: expect.any(Number),
      job_id: expect.any(String),
    });
  });

  it('answers errors found before streaming starts with their status, as JSON', async () => {
    const response = await post({ prompt: 'Crawl the whole site and list posts', stream: true });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ success: false, code: 'UNPROCESSABLE', workflow_status: 'failed' });
  });

  it('cancels the work when the client disconnects', async () => {
    stack.model.respondWith(() => reply.hang());
    const controller = new AbortController();
    const response = await post({ prompt: crawlPrompt(), stream: true }, {}, controller.signal);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('"extracting"')) seen += decoder.decode((await reader.read()).value);
    // The model has been asked and is hanging; the client goes away.
    await eventually(async () => stack.model.requests.length > 0, 15_000, 20);
    controller.abort();

    const queue = stack.gateway.deps.queues.parse;
    const [job] = await queue.getJobs(['active', 'failed', 'completed']);
    expect(job).toBeDefined();
    await eventually(async () => (await job!.getState()) === 'failed', 15_000, 50);
    // Stopped by the cancel, not by PARSE_TIMEOUT: had the hanging call run on, its timeout would
    // have led to a retry (a further model call) before the job could end.
    const failed = await queue.getJob(job!.id!);
    expect(failed?.failedReason).toMatch(/^JOB_FAILED: Cancelled: the client disconnected/);
    expect(await stack.gateway.deps.redis.exists(parseCancelKey(stack.prefix, job!.id!))).toBe(1);
    // No retry after the cancel: every model call was hung up, none was answered, and the client
    // never began a backoff wait before another attempt.
    const asked = stack.model.requests.length;
    await stack.model.until(() => stack.model.requests.every((request) => request.abandoned));
    expect(stack.model.requests).toHaveLength(asked);
    expect(waits).toEqual([]);
  });

  it('cancels a synchronous parse whose client disconnects too', async () => {
    stack.model.respondWith(() => reply.hang());
    const controller = new AbortController();
    const pending = post({ prompt: crawlPrompt() }, {}, controller.signal).catch((error: Error) => error);
    await eventually(async () => stack.model.requests.length > 0, 15_000, 20);
    const queue = stack.gateway.deps.queues.parse;
    const [job] = await queue.getJobs(['active']);
    controller.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
    await eventually(async () => (await job!.getState()) === 'failed', 15_000, 50);
    expect((await queue.getJob(job!.id!))?.failedReason).toMatch(/Cancelled: the client disconnected/);
  });
});
