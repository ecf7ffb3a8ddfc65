import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Logger } from '@sitelens/telemetry';
import type { GatewayDeps } from '../deps';

/**
 * One route: its schemas and its handler. Validation runs before the handler from these schemas,
 * and the same schemas describe the route in the OpenAPI document.
 */
export interface RouteContext<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
  deps: GatewayDeps;
  log: Logger;
  /** The absolute origin clients reach the gateway at (PUBLIC_BASE_URL or the request's Host). */
  origin: string;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface OpenApiResponse {
  description: string;
  schema?: z.ZodType;
}

export interface RouteDefinition<B = unknown, Q = unknown, P = unknown> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express paths; the first is the documented one, the rest are aliases. */
  paths: readonly string[];
  summary: string;
  tag: string;
  /** false for routes that never need an API key (health, docs, metrics). */
  auth?: boolean;
  /**
   * Hosted mode counts a request against the key's rate limit as it arrives ('request', the
   * default), or leaves the counting to the handler ('handler': `req.countRequest`), for routes
   * that carry several kinds of calls (MCP: a refused tool call is a tool error, not an HTTP 429).
   */
  rateLimit?: 'request' | 'handler';
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  responses?: Record<number, OpenApiResponse>;
  /**
   * Gives every error of this route (guard refusals, a malformed body, failed validation, the
   * handler's own) the route's error shape, e.g. parse's workflow fields.
   */
  shapeError?: (error: unknown, req: Request) => unknown;
  /** Returns the response, or undefined when it wrote the response itself (streams, files). */
  handler: (ctx: RouteContext<B, Q, P>) => Promise<RouteResult | undefined>;
}

/** Keeps each route's generic types tied together at its definition. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(definition: RouteDefinition<B, Q, P>): RouteDefinition<B, Q, P> {
  return definition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of routes of mixed input types
export type AnyRoute = RouteDefinition<any, any, any>;
