/**
 * The MCP endpoint through the SDK's own client (Client + StreamableHTTPClientTransport) against a
 * real gateway, parse worker, screenshot worker, scripted model and fixture site: the tools, their
 * schemas (the REST routes' own), their answers (what the REST API answers) and their errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PNG } from 'pngjs';
import { chromePath } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { reply } from '@sitelens/testkit/scripted-openai';
import { createLogger } from '@sitelens/telemetry';
import { startScreenshotWorker, type RunningScreenshotWorker } from '@sitelens/screenshot-worker';
import { byPage, startParseStack, type ParseStack } from '../parse/support/parse-stack';

async function connect(origin: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sitelens-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }));
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

const textOf = (result: CallToolResult) => result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');

describe('MCP endpoint, local mode', () => {
  let stack: ParseStack;
  let screenshots: RunningScreenshotWorker;
  let client: Client;
  let origin: string;

  beforeAll(async () => {
    stack = await startParseStack({ env: { CHROME_PATH: chromePath(), SCREENSHOT_CONCURRENCY: '1' } });
    screenshots = await startScreenshotWorker(stack.gateway.config, createLogger({ level: 'silent', service: 'mcp-test' }));
    origin = stack.gateway.origin;
    client = await connect(origin);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await screenshots?.close();
    await stack?.close();
  });

  it("lists every tool with its route's own input schema, as the API document shows it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['scrape', 'screenshot', 'map', 'crawl', 'crawl_status', 'parse']);
    const api = (await getJson(`${origin}/openapi.json`)).json as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: object } }> } }>>;
    };
    const bodyOf = (path: string) => api.paths[path]!.post!.requestBody!.content['application/json']!.schema.properties;
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.scrape!.inputSchema.properties).toEqual(bodyOf('/v1/scrape'));
    expect(byName.map!.inputSchema.properties).toEqual(bodyOf('/v1/map'));
    expect(byName.crawl!.inputSchema.properties).toEqual(bodyOf('/v1/crawl'));
    expect(byName.crawl!.inputSchema.required).toEqual(['url']);
    // Screenshot: the route's fields less `stream` (the tool waits itself), plus `inline`.
    const { stream, ...screenshotFields } = bodyOf('/v1/screenshots') as Record<string, unknown>;
    expect(stream).toBeDefined();
    const { inline, ...screenshotTool } = byName.screenshot!.inputSchema.properties as Record<string, unknown>;
    expect(screenshotTool).toEqual(screenshotFields);
    expect(inline).toMatchObject({ type: 'boolean', default: false });
    const { stream: s2, async: a2, ...parseFields } = bodyOf('/v1/parse') as Record<string, unknown>;
    expect([s2, a2]).toEqual([expect.anything(), expect.anything()]);
    expect(byName.parse!.inputSchema.properties).toEqual(parseFields);
    expect(byName.crawl_status!.inputSchema).toMatchObject({
      type: 'object',
      properties: { job_id: { type: 'string' } },
      required: ['job_id'],
    });
    for (const tool of tools) expect(tool.description).toMatch(/Costs one request/);
  });

  it('scrape answers what POST /v1/scrape answers, with the markdown as text', async () => {
    const url = stack.site.urls.product;
    const result = await call(client, 'scrape', { url });
    expect(result.isError).toBeFalsy();
    const rest = await postJson(`${origin}/v1/scrape`, { url });
    expect(rest.status).toBe(200);
    expect(result.structuredContent).toEqual(rest.json);
    expect(textOf(result)).toBe(rest.json.content);
    expect(textOf(result)).toContain('Price: 19.99 EUR');
  });

  it('screenshot waits for the job and returns the signed URL, and the PNG itself with inline', async () => {
    const result = await call(client, 'screenshot', {
      url: stack.site.urls.product,
      device: 'custom',
      width: 640,
      height: 400,
      inline: true,
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { job_id: string; status: string; screenshot: string };
    expect(answer).toMatchObject({ success: true, status: 'completed', metadata: { width: 640, height: 400 } });
    // The same view as the REST lookup (the signed URL is signed anew per answer).
    const rest = await getJson(`${origin}/v1/screenshots?job_id=${answer.job_id}`);
    expect({ ...rest.json, screenshot: undefined, expires_at: undefined }).toEqual({
      ...answer,
      screenshot: undefined,
      expires_at: undefined,
    });
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const inlineBytes = Buffer.from((image as { data: string }).data, 'base64');
    const png = PNG.sync.read(inlineBytes);
    expect({ width: png.width, height: png.height }).toEqual({ width: 640, height: 400 });
    const fetched = await fetch(answer.screenshot);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(inlineBytes);
    expect(textOf(result)).toContain(answer.screenshot);
  });

  it('screenshot without inline returns no image, and a PDF is never inline', async () => {
    const plain = await call(client, 'screenshot', { url: stack.site.urls.product, device: 'custom', width: 320, height: 240 });
    expect(plain.content.map((block) => block.type)).toEqual(['text']);
    const pdf = await call(client, 'screenshot', { url: stack.site.urls.product, format: 'pdf', inline: true });
    expect(pdf.isError).toBeFalsy();
    expect(pdf.content.map((block) => block.type)).toEqual(['text', 'text']);
    expect(textOf(pdf)).toContain('application/pdf is not returned inline');
  });

  it('parse returns the data POST /v1/parse returns', async () => {
    stack.model.respondWith(byPage({ [stack.site.urls.product]: reply.json({ name: 'Blue Widget', price: 19.99 }) }));
    const prompt = `Get the product name and price from ${stack.site.urls.product}`;
    const result = await call(client, 'parse', { prompt });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ success: true, data: { name: 'Blue Widget', price: 19.99 }, pages_processed: 1 });
    expect(JSON.parse(textOf(result))).toEqual({ name: 'Blue Widget', price: 19.99 });
    const rest = await postJson(`${origin}/v1/parse`, { prompt });
    expect(rest.json.data).toEqual((result.structuredContent as { data: unknown }).data);
  });

  it('map lists the URLs POST /v1/map lists', async () => {
    const result = await call(client, 'map', { url: stack.site.urls.blog });
    const rest = await postJson(`${origin}/v1/map`, { url: stack.site.urls.blog });
    expect(result.structuredContent).toEqual(rest.json);
    expect(textOf(result).split('\n')).toEqual(expect.arrayContaining(stack.site.urls.posts));
  });

  it('crawl starts a crawl and crawl_status follows it to its pages', async () => {
    const started = await call(client, 'crawl', { url: stack.site.urls.blog, depth: 1, link_limit: 4 });
    expect(started.isError).toBeFalsy();
    const jobId = (started.structuredContent as { job_id: string }).job_id;
    expect(textOf(started)).toContain(`"job_id": "${jobId}"`);
    const job = await stack.gateway.deps.queues.parse.getJob(jobId);
    await job!.waitUntilFinished(stack.gateway.deps.events.parse, 30_000);
    const status = await call(client, 'crawl_status', { job_id: jobId });
    const rest = await getJson(`${origin}/v1/crawl/${jobId}`);
    expect(status.structuredContent).toEqual(rest.json);
    expect(status.structuredContent).toMatchObject({ status: 'completed', data: { statistics: { successful_pages: 4 } } });
  });

  it("answers bad input as a tool error with the REST error's code and message", async () => {
    const result = await call(client, 'scrape', { url: 'not a url' });
    const rest = await postJson(`${origin}/v1/scrape`, { url: 'not a url' });
    expect(rest.status).toBe(400);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(rest.json);
    expect(textOf(result)).toBe(`INVALID_REQUEST: ${rest.json.error as string}`);

    const streamed = await call(client, 'screenshot', { url: stack.site.urls.product, stream: true });
    expect(streamed).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_REQUEST' } });
    expect(textOf(streamed)).toBe("INVALID_REQUEST: Invalid field 'stream': not available through the screenshot tool");

    const inline = await call(client, 'screenshot', { url: stack.site.urls.product, inline: 'yes' });
    expect(inline).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_REQUEST' } });
    expect(textOf(inline)).toMatch(/^INVALID_REQUEST: Invalid field 'inline'/);

    const missing = await call(client, 'crawl_status', { job_id: 'no-such-job' });
    expect(missing).toMatchObject({ isError: true, structuredContent: { success: false, code: 'NOT_FOUND' } });

    // A page that is not there: the upstream 404, as REST answers it.
    const gone = await call(client, 'scrape', { url: stack.site.urls.missing });
    const gone2 = await postJson(`${origin}/v1/scrape`, { url: stack.site.urls.missing });
    expect(gone).toMatchObject({ isError: true, structuredContent: gone2.json });
  });

  it('refuses a batch and offers no stream on GET', async () => {
    const batch = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]),
    });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
    // What the transport would refuse is refused with the API's error body.
    const post = (headers: Record<string, string>, body: string) => fetch(`${origin}/mcp`, { method: 'POST', headers, body });
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const noAccept = await post({ 'content-type': 'application/json' }, message);
    expect([noAccept.status, await noAccept.json()]).toEqual([406, expect.objectContaining({ success: false, code: 'NOT_ACCEPTABLE' })]);
    const both = { accept: 'application/json, text/event-stream' };
    const notRpc = await post({ ...both, 'content-type': 'application/json' }, JSON.stringify({ a: { a: 1 } }));
    expect([notRpc.status, await notRpc.json()]).toEqual([400, expect.objectContaining({ success: false, code: 'INVALID_REQUEST' })]);
    const vendorJson = await post({ ...both, 'content-type': 'application/vnd.api+json' }, message);
    expect([vendorJson.status, await vendorJson.json()]).toEqual([
      415,
      expect.objectContaining({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' }),
    ]);
    const get = await fetch(`${origin}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
  });
});
