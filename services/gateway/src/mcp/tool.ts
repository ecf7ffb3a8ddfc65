/**
 * What an MCP tool is here: a thin adapter over one REST route. It lists the route's own input
 * schema (less the fields it sets itself, plus its own options), validates by it and calls the
 * route's handler, so a tool and its route never drift apart.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { CallToolResult, ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { BadRequest } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';
import type { GatewayDeps } from '../deps';
import type { AnyRoute, RouteResult } from '../http/route';
import { parseRouteInput, type RawRouteInput } from '../http/route-input';

/** The HTTP request the tool call came in on, and what a route handler needs from it. */
export interface ToolContext {
  req: Request;
  res: Response;
  deps: GatewayDeps;
  log: Logger;
  origin: string;
}

export interface ToolCall<E> {
  /** The route's arguments, not yet validated (the route's schema does that). */
  args: Record<string, unknown>;
  /** The tool's own options, validated. */
  options: E;
}

export interface McpTool<E = Record<string, never>> {
  name: string;
  title: string;
  /** What it does, what it costs and when to use it instead of another tool. */
  description: string;
  /** The route whose input the tool takes: the tool's arguments are its body, query or path. */
  route: AnyRoute;
  input: keyof RawRouteInput;
  /** Route fields the tool sets itself (e.g. `stream`): not listed, refused when given. */
  omit?: readonly string[];
  /** The tool's own options, beside the route's fields. */
  options?: z.ZodObject;
  annotations: ToolAnnotations;
  run(call: ToolCall<E>, ctx: ToolContext): Promise<CallToolResult>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of tools of mixed option types
export type AnyMcpTool = McpTool<any>;

/** Calls a route's handler as its HTTP mount would: input validated by the route's schemas first. */
export async function callRoute(route: AnyRoute, raw: RawRouteInput, ctx: ToolContext): Promise<RouteResult> {
  const input = parseRouteInput(route, raw);
  const result = await route.handler({ ...input, ...ctx });
  if (!result) throw new Error(`${route.method.toUpperCase()} ${route.paths[0]} wrote its own response; a tool cannot use it`);
  return result;
}

/** Refuses the fields a tool sets itself. */
export function refuseOmitted(tool: AnyMcpTool, args: Record<string, unknown>): void {
  const given = tool.omit?.find((field) => args[field] !== undefined);
  if (given) throw new BadRequest(`Invalid field '${given}': not available through the ${tool.name} tool`, { details: { field: given } });
}

/** A successful tool result: text for the model to read, and the REST answer as structured content. */
export function toolResult(structured: unknown, text: string, more: ContentBlock[] = []): CallToolResult {
  return {
    content: [{ type: 'text', text }, ...more],
    ...(structured && typeof structured === 'object' && !Array.isArray(structured)
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
  };
}

/** JSON text of a value, for the model to read. */
export function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
