/**
 * The MCP endpoint in hosted mode, attacked as a tenant with a free key would: a key is needed,
 * private addresses are refused as tool errors, plan caps apply, and every message counts against
 * the key's rate limit like a REST call (a refused tool call is a RATE_LIMITED tool error).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PLANS } from '@sitelens/contracts';
import { postJson, startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';

const FREE = 'mcp-free-key-000001';
const PRO = 'mcp-pro-key-0000001';

async function connect(origin: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'sitelens-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers } }));
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('MCP endpoint, hosted mode', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // A day of 7 requests on the free plan: the counting is seen without waiting for any window.
    const plans = { ...PLANS, free: { ...PLANS.free, requestsPerDay: 7 } };
    gw = await startTestGateway({ MODE: 'hosted', API_KEYS: `${FREE}:free,${PRO}:pro` }, undefined, { plans });
  });
  afterAll(() => gw.close());

  it('needs a key: the client cannot even connect without one', async () => {
    for (const key of [undefined, 'not-a-key-at-all-0000']) {
      const refused = connect(gw.origin, key);
      await expect(refused).rejects.toMatchObject({ code: 401 });
      await expect(refused).rejects.toThrow(/"code":"UNAUTHORIZED"/);
    }
  });

  it('refuses private targets and over-plan requests as tool errors, counts each call, then answers RATE_LIMITED', async () => {
    const client = await connect(gw.origin, FREE);
    try {
      // Connecting (initialize, then the initialized notification) and listing count: 3 of 7.
      expect((await client.listTools()).tools).toHaveLength(6);
      const rest = async (path: string, body: unknown) =>
        (await postJson(`${gw.origin}${path}`, body, { authorization: `Bearer ${PRO}` })).json;

      const loopback = await call(client, 'scrape', { url: 'http://127.0.0.1:9/' });
      expect(loopback).toMatchObject({ isError: true, structuredContent: { success: false, code: 'URL_BLOCKED' } });
      expect(loopback.structuredContent).toEqual(await rest('/v1/scrape', { url: 'http://127.0.0.1:9/' }));

      const metadata = await call(client, 'screenshot', { url: 'http://169.254.169.254/latest/meta-data/' });
      expect(metadata).toMatchObject({ isError: true, structuredContent: { code: 'URL_BLOCKED' } });

      const overPlan = await call(client, 'parse', { prompt: 'Get the titles from https://example.com/', max_pages: 6 });
      expect(overPlan).toMatchObject({ isError: true, structuredContent: { code: 'PLAN_LIMIT', workflow_status: 'failed' } });
      expect(overPlan.content).toEqual([
        { type: 'text', text: "PLAN_LIMIT: max_pages 6 exceeds the free plan's limit of 5 pages per request" },
      ]);

      const internal = await call(client, 'map', { url: 'http://10.0.0.1/' });
      expect(internal).toMatchObject({ isError: true, structuredContent: { code: 'URL_BLOCKED' } });

      const limited = await call(client, 'scrape', { url: 'http://127.0.0.1:9/' });
      expect(limited).toMatchObject({ isError: true, structuredContent: { success: false, code: 'RATE_LIMITED' } });
      expect(limited.content[0]).toMatchObject({
        text: expect.stringMatching(/^RATE_LIMITED: Rate limit exceeded: the free plan allows 7 requests per day/),
      });

      // The same count as the REST API: the key's REST calls are refused now too.
      const restCall = await postJson(`${gw.origin}/v1/scrape`, { url: 'https://example.com/' }, { authorization: `Bearer ${FREE}` });
      expect(restCall.status).toBe(429);
      // The protocol's own messages are refused too, with the HTTP 429 of any API request.
      await expect(client.listTools()).rejects.toMatchObject({ code: 429 });
    } finally {
      await client.close();
    }
  });
});
