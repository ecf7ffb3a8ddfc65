import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError, BadRequest } from '@sitelens/contracts';
import { defineRoute, type AnyRoute } from '../http/route';
import { createMcpServer, listTools } from '../mcp/server';
import type { AnyMcpTool } from '../mcp/tool';

/** One JSON-RPC message; the transport checks its shape and answers JSON-RPC errors itself. */
const jsonRpcMessage = z.unknown();

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (no session: every
 * request stands alone, so any replica answers). In hosted mode the key is checked like any API
 * call and every message counts as one request against the key's plan: a tool call in the tool's
 * handler (a refused one is a RATE_LIMITED tool error), the protocol's own messages here (429).
 */
export function mcpPost(tools: readonly AnyMcpTool[]): AnyRoute {
  const listed = listTools(tools);
  return defineRoute<unknown>({
    method: 'post',
    paths: ['/mcp'],
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless): the API as tools for AI agents',
    tag: 'MCP',
    rateLimit: 'handler',
    body: jsonRpcMessage,
    async handler({ body, req, res, deps, log, origin }) {
      // One message per request keeps "one tool call, one counted request" exact (the protocol's
      // 2025-06-18 revision dropped batches; the SDK's client never sends them).
      if (Array.isArray(body)) throw new BadRequest('Send one JSON-RPC message per request; batches are not accepted');
      // What the transport would refuse, refused here first so the answer is the API's error body.
      const accept = req.get('accept') ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        throw new AppError('NOT_ACCEPTABLE', 'An MCP client must accept both application/json and text/event-stream');
      }
      if (!isJsonContentType(req.get('content-type'))) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'An MCP message is sent as application/json');
      }
      if (!JSONRPCMessageSchema.safeParse(body).success) throw new BadRequest('The body is not a JSON-RPC 2.0 message');
      // Every message counts once, as every REST request does: a tool call in its handler (so a
      // refused one is a tool error), anything else (initialize, tools/list, ping) here.
      const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
      if (method !== 'tools/call') await req.countRequest?.();
      const server = createMcpServer(tools, listed, { req, res, deps, log, origin });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // The SDK reads an OAuth `req.auth` of its own; ours (key id and plan) reaches the tools
      // through the context instead.
      await transport.handleRequest(req as unknown as IncomingMessage, res, body);
      return undefined;
    },
  });
}
