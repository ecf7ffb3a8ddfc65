import type { z } from 'zod';
import { BadRequest } from '@sitelens/contracts';

/** Parses input with a schema; the first problem becomes a 400 naming the field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, where: 'body' | 'query' | 'path'): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  if (!issue) throw new BadRequest(`Invalid request ${where}`);
  if (field === undefined) {
    throw new BadRequest(where === 'body' ? 'The request body must be a JSON object' : `Invalid ${where}: ${issue.message}`);
  }
  const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
  const message = missing ? 'is required' : issue.message;
  throw new BadRequest(
    `Invalid ${where === 'body' ? 'field' : where === 'query' ? 'query parameter' : 'path parameter'} '${field}': ${message}`,
    {
      details: { field },
    },
  );
}

/** The value at a path of the raw input (zod issues do not carry it). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
