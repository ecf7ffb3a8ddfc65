import { z } from 'zod';
import { isAppError } from './errors';
import { boundedInt } from './fields';
import { checkSchemaShape, SCHEMA_LIMITS } from './parse-schema-shape';

/** POST /v1/parse: a prompt naming the pages, an optional JSON schema for the data, the output format. */

export const OUTPUT_FORMATS = ['json', 'csv', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A user's JSON schema as it arrives in a request. */
export type JsonSchema = Record<string, unknown>;

/** Spec sections 2.4 and 8. */
export const PARSE_LIMITS = {
  maxPromptLength: 10_000,
  maxDepth: { min: 1, max: 3, default: 1 },
  maxPages: { min: 1, max: 100, default: 10 },
} as const;

/**
 * Body of `POST /v1/parse`. `output_format` stays `undefined` when the client leaves it out, so
 * prompt words ("as CSV") can still pick the format; `analyzePrompt` applies the json default.
 * The schema's size, depth and property count are checked here (cheap, linear); whether Ajv can
 * compile it, and its patterns run, is for `compileUserSchema` of @sitelens/parse-input (off the
 * event loop on the gateway, see `createSchemaChecker`).
 */
export const parseRequest = z.object({
  prompt: z
    .string({ error: 'is required and must be a string' })
    .trim()
    .min(1, 'is required')
    .max(PARSE_LIMITS.maxPromptLength, `must be at most ${PARSE_LIMITS.maxPromptLength} characters`),
  schema: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON schema object' })
    .superRefine((schema, ctx) => {
      try {
        checkSchemaShape(schema);
      } catch (error) {
        if (!isAppError(error)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message.replace(/^schema: /, '') });
      }
    })
    .optional()
    .describe(
      `JSON schema (draft-07, 2019-09 or 2020-12) the data is bound to: at most ${SCHEMA_LIMITS.maxBytes / 1024} KiB as JSON, ` +
        `${SCHEMA_LIMITS.maxDepth} levels deep and ${SCHEMA_LIMITS.maxProperties} properties; patterns run on RE2 ` +
        '(linear time: no backreferences or lookaround)',
    ),
  output_format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
  stream: z.boolean({ error: 'must be a boolean' }).default(false),
  max_depth: boundedInt(PARSE_LIMITS.maxDepth.min, PARSE_LIMITS.maxDepth.max).default(PARSE_LIMITS.maxDepth.default),
  max_pages: boundedInt(PARSE_LIMITS.maxPages.min, PARSE_LIMITS.maxPages.max).default(PARSE_LIMITS.maxPages.default),
  async: z.boolean({ error: 'must be a boolean' }).default(false),
});

export type ParseRequest = z.infer<typeof parseRequest>;
