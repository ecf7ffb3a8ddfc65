/**
 * The MCP server of one HTTP request (stateless: any gateway replica answers any request). Tools
 * are listed and called through the SDK's request handlers with the REST routes' own JSON
 * Schemas and validation, so a tool argument is refused with the same message as the REST field.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { toAppError } from '../http/errors';
import { toJsonSchema } from '../http/openapi';
import { parseInput } from '../http/validation';
import { refuseOmitted, type AnyMcpTool, type ToolContext } from './tool';

const INSTRUCTIONS =
  "Sitelens reads, captures and extracts from the web. scrape reads one page; map lists a site's URLs; crawl + " +
  'crawl_status read many pages; screenshot captures a page as an image or PDF; parse extracts data with a language ' +
  "model from a prompt that names the URL. Errors carry the REST API's code (e.g. URL_BLOCKED, PLAN_LIMIT, RATE_LIMITED).";

/** A tool's input as JSON Schema: its route's fields (less the ones it sets) and its own options. */
function inputSchemaOf(tool: AnyMcpTool): Tool['inputSchema'] {
  const schema = tool.route[tool.input];
  if (!schema) throw new Error(`The route behind tool ${tool.name} has no ${tool.input} schema`);
  const json = toJsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  const properties = { ...json.properties };
  for (const field of tool.omit ?? []) delete properties[field];
  const own = tool.options ? (toJsonSchema(tool.options, 'input') as { properties?: Record<string, object> }).properties : {};
  const required = (json.required ?? []).filter((field) => !tool.omit?.includes(field));
  return { ...json, type: 'object', properties: { ...properties, ...own }, ...(required.length > 0 ? { required } : {}) };
}

/** The tool list, computed once per gateway (the schemas do not change while it runs). */
export function listTools(tools: readonly AnyMcpTool[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    annotations: { title: tool.title, ...tool.annotations },
  }));
}

/** Separates the tool's own options from the route's arguments. */
function splitArguments(tool: AnyMcpTool, args: Record<string, unknown>) {
  const own = new Set(Object.keys(tool.options?.shape ?? {}));
  const routeArgs: Record<string, unknown> = {};
  const optionArgs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) (own.has(name) ? optionArgs : routeArgs)[name] = value;
  const options = tool.options ? parseInput(tool.options, optionArgs, 'body') : {};
  return { routeArgs, options };
}

/** Any failure as a tool error carrying the REST answer's code, message and body. */
function toolError(tool: AnyMcpTool, error: unknown, ctx: ToolContext): CallToolResult {
  const appError = toAppError(tool.route.shapeError ? tool.route.shapeError(error, ctx.req) : error);
  if (appError.code === 'INTERNAL' || appError.status >= 500) ctx.log.error({ err: error, tool: tool.name }, 'MCP tool failed');
  return {
    isError: true,
    content: [{ type: 'text', text: `${appError.code}: ${appError.message}` }],
    structuredContent: appError.toBody() as Record<string, unknown>,
  };
}

export function createMcpServer(tools: readonly AnyMcpTool[], listed: Tool[], ctx: ToolContext): McpServer {
  const mcp = new McpServer({ name: 'sitelens', version: ctx.deps.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them`);
    const started = Date.now();
    let result: CallToolResult;
    try {
      // Hosted mode: each tool call is one request against the key's plan, like a REST call.
      await ctx.req.countRequest?.();
      const args = request.params.arguments ?? {};
      refuseOmitted(tool, args);
      const { routeArgs, options } = splitArguments(tool, args);
      result = await tool.run({ args: routeArgs, options }, ctx);
    } catch (error) {
      result = toolError(tool, error, ctx);
    }
    ctx.log.info({ tool: tool.name, ms: Date.now() - started, isError: result.isError === true }, 'MCP tool call');
    return result;
  });
  return mcp;
}
