import { appErrorFrom } from './support/app-error';
import { createModelClient, extractFromPages, type PageResult } from '../src';
import { reply, startScriptedModel, type RecordedRequest, type ScriptStep, type ScriptedModel } from '@sitelens/testkit/scripted-openai';

const productSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number', minimum: 0 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  required: ['name', 'price'],
};

const productPage = { url: 'https://shop.example.com/p/1', markdown: '# Blue Widget\n\nPrice: 19.99 EUR\n\nIn stock.' };

/** Answers by the page URL the request is about, so concurrent calls get the right data. */
function byPage(answers: Record<string, ScriptStep>): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const url = /Page: (\S+)/.exec(request.userText)?.[1] ?? '';
    return answers[url] ?? reply.error(500, `no answer scripted for ${url}`);
  };
}

describe('extractFromPages', () => {
  let server: ScriptedModel;
  beforeEach(async () => {
    server = await startScriptedModel();
  });
  afterEach(async () => {
    await server.close();
  });

  const model = (overrides = {}) => createModelClient(server.clientConfig(overrides));

  it('returns the fields of a schema-bound extraction', async () => {
    server.enqueue(reply.json({ name: 'Blue Widget', price: 19.99, currency: 'EUR' }));
    const pages: PageResult[] = [];
    const result = await extractFromPages(
      { prompt: 'Get the product name, price and currency', pages: [productPage], schema: productSchema },
      { model: model(), concurrency: 2, onPageResult: (page) => pages.push(page) },
    );
    expect(result.data).toEqual({ name: 'Blue Widget', price: 19.99, currency: 'EUR' });
    expect(result.warnings).toEqual([]);
    expect(result.pagesExtracted).toBe(1);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(result.usage.total_tokens).toBe(result.usage.input_tokens + result.usage.output_tokens);
    expect(pages).toEqual([{ url: productPage.url, index: 0, data: result.data }]);

    const sent = server.requests[0];
    expect(sent?.mode).toBe('json_schema');
    expect(sent?.schema).toEqual(productSchema);
    expect(sent?.userText).toContain('Get the product name, price and currency');
    expect(sent?.userText).toContain('Price: 19.99 EUR');
  });

  it.each(['jsonSchema', 'functionCalling'] as const)(
    'wraps a top-level array schema as {items} for the provider and unwraps the answer (%s)',
    async (structuredOutput) => {
      const schema = { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } };
      server.enqueue(reply.json({ items: [{ title: 'One' }, { title: 'Two' }] }));
      const result = await extractFromPages(
        { prompt: 'List the post titles', pages: [{ url: 'https://blog.example.com/', markdown: '## One\n\n## Two' }], schema },
        { model: model({ structuredOutput }), concurrency: 1 },
      );
      expect(result.data).toEqual([{ title: 'One' }, { title: 'Two' }]);
      expect(result.warnings).toEqual([]);
      // The scripted server, like OpenAI, answers 400 to a non-object top level: it got an object.
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.schema).toEqual({
        type: 'object',
        properties: { items: schema },
        required: ['items'],
        additionalProperties: false,
      });
    },
  );

  it('returns data that fails the schema as extracted, with a warning', async () => {
    server.enqueue(reply.json({ name: 'Blue Widget', price: -5, currency: 'euro' }));
    const result = await extractFromPages(
      { prompt: 'Get the product', pages: [productPage], schema: productSchema },
      { model: model(), concurrency: 1 },
    );
    expect(result.data).toEqual({ name: 'Blue Widget', price: -5, currency: 'euro' });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/does not match the schema/);
    expect(result.warnings[0]).toContain('data/price must be >= 0');
    expect(result.warnings[0]).toContain('data/currency must match pattern');
  });

  it('extracts pages concurrently: all 4 model calls are in flight at once', async () => {
    const urls = [1, 2, 3, 4].map((n) => `https://blog.example.com/post-${n}`);
    server.respondWith(byPage(Object.fromEntries(urls.map((url, i) => [url, reply.json({ title: `Post ${i + 1}` }, { latencyMs: 300 })]))));
    const client = model();
    const result = await extractFromPages(
      { prompt: 'Get the title', pages: urls.map((url) => ({ url, markdown: `# Post at ${url}` })) },
      { model: client, concurrency: 4 },
    );
    expect(result.data).toEqual([{ title: 'Post 1' }, { title: 'Post 2' }, { title: 'Post 3' }, { title: 'Post 4' }]);
    // Sequential calls would never overlap; the speed itself is measured in bench/parse.
    expect(server.maxInFlight).toBe(4);
  });

  it('never has more model calls in flight than the concurrency bound', async () => {
    server.respondWith(() => reply.json({ items: [{ n: Math.random() }] }, { latencyMs: 150 }));
    await extractFromPages(
      { prompt: 'Get items', pages: [1, 2, 3, 4, 5].map((n) => ({ url: `https://example.com/${n}`, markdown: `page ${n}` })) },
      { model: model(), concurrency: 2 },
    );
    expect(server.requests).toHaveLength(5);
    expect(server.maxInFlight).toBe(2);
  });

  it('merges pages: arrays concatenated, duplicates removed, first scalar kept; reports each page', async () => {
    const schema = {
      type: 'object',
      properties: { blog: { type: 'string' }, posts: { type: 'array', items: { type: 'object' } } },
    };
    server.respondWith(
      byPage({
        'https://blog.example.com/': reply.json({
          blog: 'Example Blog',
          posts: [
            { title: 'A', tags: ['x'] },
            { title: 'B', tags: [] },
          ],
        }),
        'https://blog.example.com/page/2': reply.json({
          blog: 'Other name',
          posts: [
            { tags: [], title: 'B' },
            { title: 'C', tags: ['y'] },
          ],
        }),
      }),
    );
    const seen: PageResult[] = [];
    const result = await extractFromPages(
      {
        prompt: 'All blog posts',
        pages: [
          { url: 'https://blog.example.com/', markdown: 'A B' },
          { url: 'https://blog.example.com/page/2', markdown: 'B C' },
        ],
        schema,
      },
      { model: model(), concurrency: 2, onPageResult: (page) => seen.push(page) },
    );
    expect(result.data).toEqual({
      blog: 'Example Blog',
      posts: [
        { title: 'A', tags: ['x'] },
        { title: 'B', tags: [] },
        { title: 'C', tags: ['y'] },
      ],
    });
    expect(seen.map((page) => page.index).sort()).toEqual([0, 1]);
    expect(seen.find((page) => page.index === 1)?.data).toEqual({
      blog: 'Other name',
      posts: [
        { tags: [], title: 'B' },
        { title: 'C', tags: ['y'] },
      ],
    });
  });

  it('without a schema asks for plain JSON and repairs almost-JSON answers', async () => {
    server.enqueue(reply.text("Here you go:\n```json\n{'title': 'Hello', tags: ['a', 'b',], \"count\": 2,}\n```"));
    const result = await extractFromPages(
      { prompt: 'Get the title and tags', pages: [{ url: 'https://example.com/', markdown: '# Hello' }] },
      { model: model(), concurrency: 1 },
    );
    expect(result.data).toEqual({ title: 'Hello', tags: ['a', 'b'], count: 2 });
    expect(server.requests[0]?.mode).toBe('text');
    expect(server.requests[0]?.body.messages?.[0]?.content).toContain('single JSON value');
  });

  it('repairs an almost-JSON answer to a schema-bound request', async () => {
    server.enqueue(reply.text('{"name": "Blue Widget", "price": 19.99, "currency": "EUR",'));
    const result = await extractFromPages(
      { prompt: 'Get the product', pages: [productPage], schema: productSchema },
      { model: model(), concurrency: 1 },
    );
    expect(result.data).toEqual({ name: 'Blue Widget', price: 19.99, currency: 'EUR' });
    expect(result.warnings).toEqual([]);
  });

  it('repairs almost-JSON tool-call arguments with function calling', async () => {
    server.enqueue(reply.text("{'name': 'Blue Widget', 'price': 19.99, 'currency': 'EUR'"));
    const result = await extractFromPages(
      { prompt: 'Get the product', pages: [productPage], schema: productSchema },
      { model: model({ structuredOutput: 'functionCalling' }), concurrency: 1 },
    );
    expect(server.requests[0]?.mode).toBe('tools');
    expect(result.data).toEqual({ name: 'Blue Widget', price: 19.99, currency: 'EUR' });
  });

  it('splits a long page into chunks, trims it to the budget and merges the chunk answers', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} about product number ${i} with some words.`);
    const answers = [
      reply.json({ name: 'Widget', price: null, features: ['a'] }),
      reply.json({ name: 'Other', price: 5, features: ['b', 'a'] }),
    ];
    server.respondWith(() => answers.shift() ?? reply.json({ features: ['c'] }));
    const result = await extractFromPages(
      { prompt: 'Get the product', pages: [{ url: 'https://example.com/long', markdown: paragraphs.join('\n\n') }] },
      { model: model(), concurrency: 1, tokenBudget: { chunkTokens: 100, pageTokens: 250 } },
    );
    expect(server.requests.length).toBe(3);
    expect(server.requests[0]?.userText).toContain('(part 1 of 3');
    expect(server.requests[0]?.userText).toContain('Paragraph 0 ');
    expect(server.requests.map((r) => r.userText).join('\n')).not.toContain('Paragraph 39 ');
    expect(result.data).toEqual({ name: 'Widget', price: 5, features: ['a', 'b', 'c'] });
    expect(result.warnings.some((w) => /trimmed to its first 250 tokens/.test(w))).toBe(true);
  });

  it('lists flat records from several pages when there is no schema', async () => {
    server.respondWith(
      byPage({
        'https://example.com/a': reply.json({ name: 'A', price: 1 }),
        'https://example.com/b': reply.json({ name: 'B', price: 2 }),
        'https://example.com/c': reply.json({ price: 1, name: 'A' }),
      }),
    );
    const result = await extractFromPages(
      { prompt: 'Products', pages: ['a', 'b', 'c'].map((p) => ({ url: `https://example.com/${p}`, markdown: p })) },
      { model: model(), concurrency: 3 },
    );
    expect(result.data).toEqual([
      { name: 'A', price: 1 },
      { name: 'B', price: 2 },
    ]);
  });

  it('lists one record per page when the schema describes one record, checking each against it', async () => {
    server.respondWith(
      byPage({
        'https://example.com/a': reply.json({ name: 'A', price: 1 }),
        'https://example.com/b': reply.json({ name: 'B', price: 2, currency: 'EUR' }),
      }),
    );
    const pages = ['a', 'b'].map((p) => ({ url: `https://example.com/${p}`, markdown: p }));
    const result = await extractFromPages({ prompt: 'Products', pages, schema: productSchema }, { model: model(), concurrency: 2 });
    expect(result.data).toEqual([
      { name: 'A', price: 1 },
      { name: 'B', price: 2, currency: 'EUR' },
    ]);
    expect(result.warnings).toEqual([]);

    server.respondWith(
      byPage({
        'https://example.com/a': reply.json({ name: 'A', price: 1 }),
        'https://example.com/b': reply.json({ name: 'B', price: -2 }),
      }),
    );
    const mixed = await extractFromPages({ prompt: 'Products', pages, schema: productSchema }, { model: model(), concurrency: 2 });
    expect(mixed.data).toEqual([
      { name: 'A', price: 1 },
      { name: 'B', price: -2 },
    ]);
    expect(mixed.warnings).toEqual([
      expect.stringMatching(/does not match the schema \(record 2: .*price must be >= 0\); returned as extracted/),
    ]);
  });

  it('checks each record against a record schema that leaves out type: object', async () => {
    server.respondWith(
      byPage({
        'https://example.com/a': reply.json({ name: 'A' }),
        'https://example.com/b': reply.json({ title: 'B' }),
      }),
    );
    const pages = ['a', 'b'].map((p) => ({ url: `https://example.com/${p}`, markdown: p }));
    const result = await extractFromPages(
      { prompt: 'Products', pages, schema: { required: ['name'] } },
      { model: model(), concurrency: 2 },
    );
    expect(result.data).toEqual([{ name: 'A' }, { title: 'B' }]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/does not match the schema \(record 2: data must have required property 'name'\)/),
    ]);
  });

  it('skips a page whose answer is unusable, with a warning', async () => {
    server.respondWith(
      byPage({
        'https://example.com/good': reply.json({ items: [{ name: 'A' }] }),
        'https://example.com/bad': reply.text('Sorry, I cannot help with that.'),
      }),
    );
    const result = await extractFromPages(
      { prompt: 'Names', pages: ['good', 'bad'].map((p) => ({ url: `https://example.com/${p}`, markdown: p })) },
      { model: model(), concurrency: 2 },
    );
    expect(result.data).toEqual({ items: [{ name: 'A' }] });
    expect(result.pagesExtracted).toBe(1);
    expect(result.warnings).toEqual([expect.stringMatching(/^https:\/\/example.com\/bad: no usable answer/)]);
  });

  it('answers 422 when no page yields data', async () => {
    server.enqueue(reply.text('I cannot find anything.'), reply.json({ name: null, items: [] }));
    const unusable = await appErrorFrom(
      extractFromPages({ prompt: 'x', pages: [{ url: 'https://example.com/', markdown: 'x' }] }, { model: model(), concurrency: 1 }),
    );
    expect(unusable).toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
    const empty = await appErrorFrom(
      extractFromPages({ prompt: 'x', pages: [{ url: 'https://example.com/', markdown: 'x' }] }, { model: model(), concurrency: 1 }),
    );
    expect(empty).toMatchObject({ code: 'UNPROCESSABLE', status: 422 });
  });

  it('fails with LLM_ERROR when the model keeps failing, cancelling the other pages', async () => {
    server.respondWith(
      byPage({
        'https://example.com/a': reply.error(400, 'bad request'),
        'https://example.com/b': reply.json({ title: 'slow' }, { latencyMs: 2_000 }),
      }),
    );
    const error = await appErrorFrom(
      extractFromPages(
        { prompt: 'x', pages: ['a', 'b'].map((p) => ({ url: `https://example.com/${p}`, markdown: p })) },
        { model: model({ maxRetries: 3 }), concurrency: 2 },
      ),
    );
    expect(error.code).toBe('LLM_ERROR');
    // Page b's call was cancelled: if it was sent at all, its connection closed before its (2 s late)
    // answer went out.
    const slow = () => server.requests.filter((r) => r.userText.includes('https://example.com/b'));
    await server.until(() => slow().every((r) => r.abandoned === true || r.respondedAt !== undefined));
    expect(slow().filter((r) => !r.abandoned)).toEqual([]);
  });

  it('fails with LLM_NOT_CONFIGURED or a bad schema before calling the model', async () => {
    const unconfigured = createModelClient({ maxRetries: 3, timeoutMs: 1_000 });
    const notConfigured = await appErrorFrom(
      extractFromPages({ prompt: 'x', pages: [productPage] }, { model: unconfigured, concurrency: 1 }),
    );
    expect(notConfigured.code).toBe('LLM_NOT_CONFIGURED');
    const badSchema = await appErrorFrom(
      extractFromPages(
        { prompt: 'x', pages: [productPage], schema: { type: 'object', required: 'name' } },
        { model: model(), concurrency: 1 },
      ),
    );
    expect(badSchema).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(badSchema.message).toContain('schema/required');
    expect(server.requests).toHaveLength(0);
  });
});
