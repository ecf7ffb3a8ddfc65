import { isObjectSchema } from '@sitelens/parse-input';
import { isRecord } from './merge';
import type { JsonSchema } from '@sitelens/contracts';

/** The key a non-object schema is wrapped under, and unwrapped from after the call. */
export const WRAP_KEY = 'items';

// Annotation keywords some OpenAI-compatible providers reject in a response schema. They carry
// no constraint, so dropping them changes nothing about what the model may return.
const DROPPED_KEYWORDS = new Set(['$schema', '$id', '$comment', 'examples']);
// Keywords whose keys are names (fields, definitions), not keywords: a field may be called "examples".
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

export interface ProviderSchema {
  /** Schema to send: always `type: object` at the top, as structured-output APIs require. */
  schema: JsonSchema;
  /** True when the user's schema was wrapped as `{items: <schema>}`. */
  wrapped: boolean;
}

function stripKeywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripKeywords);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (DROPPED_KEYWORDS.has(key)) continue;
    out[key] =
      NAME_MAPS.has(key) && isRecord(inner)
        ? Object.fromEntries(Object.entries(inner).map(([name, sub]) => [name, stripKeywords(sub)]))
        : stripKeywords(inner);
  }
  return out;
}

/**
 * Shapes a user's JSON schema into one providers accept for structured output: annotation
 * keywords dropped, and a top-level array, scalar or union wrapped as `{items: <schema>}`.
 */
export function toProviderSchema(schema: JsonSchema): ProviderSchema {
  const cleaned = stripKeywords(schema) as JsonSchema;
  if (isObjectSchema(cleaned)) {
    return { schema: cleaned.type === undefined ? { type: 'object', ...cleaned } : cleaned, wrapped: false };
  }
  const { $defs, definitions, ...inner } = cleaned;
  return {
    schema: {
      type: 'object',
      properties: { [WRAP_KEY]: inner },
      required: [WRAP_KEY],
      additionalProperties: false,
      // References like "#/$defs/x" resolve against the root, so definitions stay at the top.
      ...($defs === undefined ? {} : { $defs }),
      ...(definitions === undefined ? {} : { definitions }),
    },
    wrapped: true,
  };
}

/** Takes a wrapped answer back out of `{items: ...}`; answers the model gave unwrapped pass through. */
export function unwrapProviderResult(value: unknown, wrapped: boolean): unknown {
  if (!wrapped) return value;
  return isRecord(value) && WRAP_KEY in value ? value[WRAP_KEY] : value;
}
