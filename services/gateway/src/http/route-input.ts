import type { AnyRoute } from './route';
import { parseInput } from './validation';

/** What a request carries before validation. */
export interface RawRouteInput {
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/**
 * Existing clients (the Supacrawler Python SDK among them) send unset fields as JSON null; a
 * top-level null means "not given", so the field's default applies.
 */
function withoutNulls(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}

/**
 * A route's typed input from raw input, by the route's own schemas: the one validation of both
 * the HTTP route and the MCP tool built on it. The first problem is a 400 naming the field.
 */
export function parseRouteInput(route: AnyRoute, raw: RawRouteInput): { body: unknown; query: unknown; params: unknown } {
  return {
    body: route.body ? parseInput(route.body, withoutNulls(raw.body), 'body') : undefined,
    query: route.query ? parseInput(route.query, raw.query, 'query') : undefined,
    params: route.params ? parseInput(route.params, raw.params, 'path') : undefined,
  };
}
