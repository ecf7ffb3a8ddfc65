import { z } from 'zod';
import type { AnyRoute } from './route';

const errorBody = z.object({ success: z.literal(false), error: z.string(), code: z.string() });

/** A zod schema as JSON Schema (2020-12), the way the API document and the MCP tool list show it. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Express `/a/:id/*rest` becomes OpenAPI `/a/{id}/{rest}`. */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}

/** The OpenAPI 3.1 document, generated from the same route schemas that validate requests. */
export function buildOpenApi(routes: readonly AnyRoute[], info: { version: string; hostedAuth: boolean }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const path of route.paths) {
      const operation: Record<string, unknown> = { summary: route.summary, tags: [route.tag] };
      const parameters: unknown[] = [];
      for (const [where, schema] of [
        ['query', route.query],
        ['path', route.params],
      ] as const) {
        if (!schema) continue;
        const json = toJsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, property] of Object.entries(json.properties ?? {})) {
          parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: property });
        }
      }
      if (parameters.length > 0) operation.parameters = parameters;
      if (route.body) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(route.body, 'input') } } };
      }
      const responses: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(route.responses ?? { 200: { description: 'OK' } })) {
        responses[status] = response.schema
          ? { description: response.description, content: { 'application/json': { schema: toJsonSchema(response.schema, 'output') } } }
          : { description: response.description };
      }
      responses['4XX'] = { description: 'Invalid request', content: { 'application/json': { schema: toJsonSchema(errorBody, 'output') } } };
      operation.responses = responses;
      if (route.auth !== false && info.hostedAuth) operation.security = [{ bearerAuth: [] }];
      paths[openApiPath(path)] = { ...paths[openApiPath(path)], [route.method]: operation };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sitelens API',
      version: info.version,
      description:
        'Web capture (screenshots), scraping, crawling and prompt-driven AI parsing. See the README for decisions the spec leaves open.',
    },
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
