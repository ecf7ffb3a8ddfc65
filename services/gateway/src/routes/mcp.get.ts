import { defineRoute } from '../http/route';

/**
 * `GET /mcp`: a stateless server has no stream to offer outside a request; 405 tells MCP clients
 * so (they then use POST alone), as the Streamable HTTP transport specifies.
 */
export const mcpGet = defineRoute({
  method: 'get',
  paths: ['/mcp'],
  summary: 'Not offered: the MCP endpoint is stateless (POST only)',
  tag: 'MCP',
  auth: false,
  handler: async () => ({
    status: 405,
    headers: { Allow: 'POST' },
    body: { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST' }, id: null },
  }),
});
