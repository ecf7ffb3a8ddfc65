import { BadRequest } from './errors';

/** Bounds of a user's JSON schema (issue 12): what a tenant may make the service compile and check. */
export const SCHEMA_LIMITS = {
  /** Bytes of the schema as JSON (UTF-8). */
  maxBytes: 64 * 1024,
  /** Levels of nested objects and arrays, the schema object itself being level 1. */
  maxDepth: 32,
  /** Named entries of every `properties` and `patternProperties` map, all levels together. */
  maxProperties: 1_000,
} as const;

/** Keywords whose value is one subschema. */
const SUBSCHEMA = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
]);
/** Keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies']);
const PROPERTY_MAPS = new Set(['properties', 'patternProperties']);

/**
 * What a value of the schema document is: a schema, a list or map of schemas (the keyword that
 * holds it), or anything else (`enum` values, `default`s, unknown keywords), whose strings are data.
 */
type Role = { kind: 'schema' } | { kind: 'list' } | { kind: 'map'; keyword: string } | { kind: 'data' };

interface Pending {
  value: unknown;
  path: string;
  depth: number;
  role: Role;
}

export interface PatternAt {
  pattern: string;
  path: string;
}

const SCHEMA: Role = { kind: 'schema' };
const DATA: Role = { kind: 'data' };

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function limitError(message: string): BadRequest {
  return new BadRequest(`schema: ${message}`, { details: { field: 'schema' } });
}

function roleOf(key: string, value: unknown): Role {
  if (SUBSCHEMA_MAP.has(key)) return { kind: 'map', keyword: key };
  if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) return { kind: 'list' };
  if (SUBSCHEMA.has(key)) return SCHEMA;
  return DATA;
}

/**
 * Every JSON value takes at least one byte and a separator: a schema of more values than this is
 * over `maxBytes` however it is written, and the walk can stop there instead of visiting a
 * million-element array.
 */
const MAX_VALUES = SCHEMA_LIMITS.maxBytes / 2 + 1;

const tooLarge = (): BadRequest => limitError(`is more than ${SCHEMA_LIMITS.maxBytes} bytes (64 KiB) as JSON`);

/**
 * Walks the schema document once with an explicit stack (a schema nested 20,000 levels stops at
 * level 33, never overflows the stack): depth, property count, size in values, and the patterns
 * it holds. Paths are only spelt out where a pattern can be.
 */
function walk(schema: object): PatternAt[] {
  const stack: Pending[] = [{ value: schema, path: '', depth: 1, role: SCHEMA }];
  const patterns: PatternAt[] = [];
  let properties = 0;
  let values = 1;
  while (stack.length > 0) {
    const { value, path, depth, role } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > SCHEMA_LIMITS.maxDepth) throw limitError(`is nested more than ${SCHEMA_LIMITS.maxDepth} levels deep`);
    if (Array.isArray(value)) {
      values += value.length;
      if (values > MAX_VALUES) throw tooLarge();
      const itemRole = role.kind === 'list' ? SCHEMA : DATA;
      value.forEach((item, index) =>
        stack.push({ value: item, path: itemRole === DATA ? '' : pointer(path, index), depth: depth + 1, role: itemRole }),
      );
      continue;
    }
    const countsProperties = role.kind === 'map' && PROPERTY_MAPS.has(role.keyword);
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      values += 1;
      if (values > MAX_VALUES) throw tooLarge();
      if (countsProperties && ++properties > SCHEMA_LIMITS.maxProperties) {
        throw limitError(`has more than ${SCHEMA_LIMITS.maxProperties} properties`);
      }
      const child = (value as Record<string, unknown>)[key];
      let childRole: Role = DATA;
      if (role.kind === 'map') {
        childRole = SCHEMA;
        if (role.keyword === 'patternProperties') patterns.push({ pattern: key, path: pointer(path, key) });
      } else if (role.kind === 'schema') {
        if (key === 'pattern' && typeof child === 'string') patterns.push({ pattern: child, path: pointer(path, key) });
        childRole = roleOf(key, child);
      }
      stack.push({ value: child, path: childRole === DATA ? '' : pointer(path, key), depth: depth + 1, role: childRole });
    }
  }
  return patterns;
}

/**
 * Checks a user schema against `SCHEMA_LIMITS` (depth, properties, bytes): one linear walk, cheap
 * enough for request validation on the gateway's event loop. Returns the patterns it holds, with
 * where they are, for the pattern check (`checkSchemaLimits` in @sitelens/parse-input). Throws
 * `BadRequest` naming the limit crossed.
 */
export function checkSchemaShape(schema: object): PatternAt[] {
  const patterns = walk(schema);
  // Within the depth limit JSON.stringify cannot overflow the stack; the body limit bounds its cost.
  const bytes = Buffer.byteLength(JSON.stringify(schema), 'utf8');
  if (bytes > SCHEMA_LIMITS.maxBytes) {
    throw limitError(`is ${bytes} bytes as JSON, more than the ${SCHEMA_LIMITS.maxBytes} (64 KiB) allowed`);
  }
  return patterns;
}
