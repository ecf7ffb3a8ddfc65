import { postJson } from '@sitelens/testkit/test-gateway';
import { reply } from '@sitelens/testkit/scripted-openai';
import { byPage, pagesAsked, startParseStack, type ParseStack } from './support/parse-stack';
import { POSTS } from './support/shop-site';

const productSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number', minimum: 0 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  required: ['name', 'price'],
};

const postsSchema = {
  type: 'object',
  properties: {
    posts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { title: { type: 'string' }, author: { type: 'object', properties: { name: { type: 'string' } } } },
        required: ['title'],
      },
    },
  },
  required: ['posts'],
};

describe('POST /v1/parse (sync)', () => {
  let stack: ParseStack;
  let parseUrl: string;
  beforeAll(async () => {
    stack = await startParseStack();
    parseUrl = `${stack.gateway.origin}/v1/parse`;
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.model.requests.length = 0;
  });

  /** Each post page answers its own record; the index page has none. */
  function answerPosts(latencyMs = 0) {
    const answers = Object.fromEntries(
      POSTS.map((post, i) => [
        stack.site.urls.posts[i]!,
        reply.json({ posts: [{ title: post.title, author: { name: post.author } }] }, { latencyMs }),
      ]),
    );
    stack.model.respondWith(byPage({ ...answers, [stack.site.urls.blog]: reply.json({ posts: [] }, { latencyMs }) }));
  }

  it('extracts from a PDF like from a page: the model reads its text', async () => {
    stack.model.respondWith(byPage({ [stack.site.urls.report]: reply.json({ customers: 11000, openings: 'September' }) }));
    const response = await postJson(parseUrl, {
      prompt: `How many online customers, and when are the openings? ${stack.site.urls.report}`,
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ success: true, data: { customers: 11000, openings: 'September' }, pages_processed: 1 });
    const asked = stack.model.requests.find((request) => request.userText.includes(stack.site.urls.report))!;
    expect(asked.userText).toContain('already counts eleven thousand customers');
    expect(asked.userText).toContain('two store openings planned for September');
  });

  it('returns the fields of a product page bound to the schema, with token counts', async () => {
    stack.model.respondWith(byPage({ [stack.site.urls.product]: reply.json({ name: 'Blue Widget', price: 19.99, currency: 'EUR' }) }));
    const response = await postJson(parseUrl, {
      prompt: `Extract the product name, price and currency from ${stack.site.urls.product}`,
      schema: productSchema,
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      success: true,
      data: { name: 'Blue Widget', price: 19.99, currency: 'EUR' },
      workflow_status: 'completed',
      output_format: 'json',
      pages_processed: 1,
      total_pages: 1,
      warnings: [],
      errors: [],
    });
    const body = response.json as Record<string, number>;
    expect(body.input_tokens).toBeGreaterThan(0);
    expect(body.output_tokens).toBeGreaterThan(0);
    expect(body.total_tokens).toBe(body.input_tokens! + body.output_tokens!);
    expect(typeof body.execution_time).toBe('number');
    expect(typeof (response.json as { job_id?: unknown }).job_id).toBe('string');
    // The schema reached the model as structured output, with the page's markdown.
    expect(stack.model.requests).toHaveLength(1);
    expect(stack.model.requests[0]?.mode).toBe('json_schema');
    expect(stack.model.requests[0]?.userText).toContain('19.99 EUR');
  });

  it('accepts a URL without a scheme (as the prompt analysis finds it) and the /api/v1 path', async () => {
    stack.model.respondWith(() => reply.json({ name: 'Blue Widget' }));
    const bare = stack.site.urls.product.replace('http://', '');
    const response = await postJson(`${stack.gateway.origin}/api/v1/parse`, { prompt: `Get the product name from ${bare}` });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ name: 'Blue Widget' });
  });

  it('crawls on crawl words and returns records from every page, extracted concurrently', async () => {
    answerPosts(200);
    const response = await postJson(parseUrl, {
      prompt: `Crawl ${stack.site.urls.blog} and extract the title and author of every blog post`,
      schema: postsSchema,
      max_pages: 10,
    });
    expect(response.status).toBe(200);
    const data = response.json.data as { posts: { title: string; author: { name: string } }[] };
    expect(data.posts.map((p) => p.title).sort()).toEqual(POSTS.map((p) => p.title).sort());
    expect(response.json).toMatchObject({ pages_processed: 4, total_pages: 4, errors: [], warnings: [] });
    expect(pagesAsked(stack.model).sort()).toEqual([stack.site.urls.blog, ...stack.site.urls.posts].sort());
    expect(stack.model.maxInFlight).toBeGreaterThan(1);
  });

  it('returns one record per page when the schema describes one post', async () => {
    const postSchema = { type: 'object', properties: { title: { type: 'string' }, author: { type: 'string' } }, required: ['title'] };
    const answers = Object.fromEntries(
      POSTS.map((post, i) => [stack.site.urls.posts[i]!, reply.json({ title: post.title, author: post.author })]),
    );
    // The index page is no post: the model finds nothing there.
    stack.model.respondWith(byPage({ ...answers, [stack.site.urls.blog]: reply.json({ title: null, author: null }) }));
    const response = await postJson(parseUrl, {
      prompt: `Crawl ${stack.site.urls.blog} and extract the title and author of every post`,
      schema: postSchema,
      output_format: 'csv',
    });
    expect(response.status).toBe(200);
    expect(response.json.warnings).toEqual([]);
    const lines = (response.json.data as string).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('title,author');
    expect(lines.slice(1).sort()).toEqual([
      '"Rain, ""again"", in Lyon",Ben Okafor',
      'A week by the sea,Chen Wei',
      'Crossing the Alps,Ana Ruiz',
    ]);
  });

  it('bounds a crawl by max_pages (start page included) and max_depth', async () => {
    answerPosts();
    const two = await postJson(parseUrl, { prompt: `Crawl all pages of ${stack.site.urls.blog} for post titles`, max_pages: 2 });
    expect(two.status).toBe(200);
    expect(two.json).toMatchObject({ pages_processed: 2, total_pages: 2 });

    stack.model.requests.length = 0;
    const response = await postJson(parseUrl, {
      prompt: `Crawl the entire site ${stack.site.urls.posts[0]} for post titles`,
      max_depth: 1,
    });
    expect(response.status).toBe(200);
    // A post links nowhere: depth 1 from it is the post alone.
    expect(pagesAsked(stack.model)).toEqual([stack.site.urls.posts[0]]);
  });

  it('formats CSV (RFC 4180, header row, nested fields flattened with dots, one row per record)', async () => {
    answerPosts();
    const response = await postJson(parseUrl, {
      prompt: `Crawl ${stack.site.urls.blog} and put every post's title and author in a spreadsheet`,
      schema: postsSchema,
    });
    expect(response.status).toBe(200);
    expect(response.json.output_format).toBe('csv');
    const csv = response.json.data as string;
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('title,author.name');
    expect(lines).toHaveLength(POSTS.length + 1);
    expect(lines).toContain('"Rain, ""again"", in Lyon",Ben Okafor');
    expect(lines).toContain('Crossing the Alps,Ana Ruiz');
  });

  it('lets the request field choose the format over prompt words (markdown)', async () => {
    answerPosts();
    const response = await postJson(parseUrl, {
      prompt: `Crawl ${stack.site.urls.blog} and list every post as CSV`,
      schema: postsSchema,
      output_format: 'markdown',
    });
    expect(response.status).toBe(200);
    expect(response.json.output_format).toBe('markdown');
    expect(response.json.data).toMatch(/\| title \| author\.name \|/);
  });

  it('skips an inaccessible URL, lists it in errors, and parses the others', async () => {
    stack.model.respondWith(byPage({ [stack.site.urls.product]: reply.json({ name: 'Blue Widget', price: 19.99 }) }));
    const response = await postJson(parseUrl, {
      prompt: `Get the product name and price from ${stack.site.urls.product} and ${stack.site.urls.missing}`,
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ name: 'Blue Widget', price: 19.99 });
    expect(response.json.errors).toEqual([{ url: stack.site.urls.missing, error: expect.stringMatching(/not found/i) }]);
    expect(response.json.pages_processed).toBe(1);
    expect(pagesAsked(stack.model)).toEqual([stack.site.urls.product]);
  });

  it('falls back to scraping the first URL when the crawl fails', async () => {
    stack.model.respondWith(() => reply.json({ name: 'Blue Widget' }));
    const response = await postJson(parseUrl, { prompt: `Crawl every page of ${stack.site.urls.flaky} for product names` });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ name: 'Blue Widget' });
    expect(response.json.warnings).toEqual([expect.stringMatching(/^Crawling .*\/flaky\/ failed \(.*503.*\); fell back to scraping it/)]);
    expect(response.json.errors).toEqual([]);
  });

  it('returns data that fails the schema as extracted, with a warning (200)', async () => {
    stack.model.respondWith(() => reply.json({ name: 'Blue Widget', price: -5, currency: 'euro' }));
    const response = await postJson(parseUrl, { prompt: `Extract the product from ${stack.site.urls.product}`, schema: productSchema });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ name: 'Blue Widget', price: -5, currency: 'euro' });
    expect(response.json.warnings).toEqual([expect.stringMatching(/does not match the schema.*price.*returned as extracted/)]);
  });

  it('retries a timed-out model call with backoff and then succeeds', async () => {
    stack.model.enqueue(reply.hang(), reply.json({ name: 'Blue Widget' }));
    const response = await postJson(parseUrl, { prompt: `Get the product name from ${stack.site.urls.product}` });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ name: 'Blue Widget' });
    expect(stack.model.requests).toHaveLength(2);
  });
});
