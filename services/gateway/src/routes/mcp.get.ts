import { AppError } from '@sitelens/contracts';
import { defineRoute } from '../http/route';

/**
 * `GET /mcp`: a stateless server has no stream to offer outside a request; 405 tells MCP clients
 * so (they then use POST alone), as the Streamable HTTP transport specifies; the body is the
 * API's usual error.
 */
export const mcpGet = defineRoute({
  method: 'get',
  paths: ['/mcp'],
  summary: 'Not offered: the MCP endpoint is stateless (POST only)',
  tag: 'MCP',
  auth: false,
  handler: async ({ res }) => {
    res.setHeader('Allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: it answers POST only, with no stream to open');
  },
});
