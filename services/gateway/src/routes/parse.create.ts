import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isModelConfigured } from '@sitelens/config';
import {
  BadRequest,
  OUTPUT_FORMATS,
  PARSE_LIMITS,
  PARSE_WORKFLOW_STATUSES,
  boundedInt,
  isAppError,
  jobPayload,
  modelNotConfigured,
  parseRequest,
} from '@sitelens/contracts';
import { analyzePrompt, type SchemaChecker } from '@sitelens/parse-input';
import { jobOwnerOf } from '../auth/job-owner';
import { enforcePagesPerRequest, enforceStreaming } from '../auth/plan-limits';
import { defineRoute } from '../http/route';
import { streamFramingOf } from '../jobs/chunk-stream';
import { parseError } from '../jobs/parse-errors';
import { awaitParse, queueParse, streamParse, type ParseRun } from '../jobs/parse-run';

/** Body of `POST /v1/parse` (spec 2.4, plus `async`). */
export const parseCreateBody = parseRequest.extend({
  // Optional here so that a plan's cap lowers the default instead of refusing it.
  max_pages: boundedInt(PARSE_LIMITS.maxPages.min, PARSE_LIMITS.maxPages.max).optional(),
});

type ParseCreateBody = z.infer<typeof parseCreateBody>;

const pageError = z.object({ url: z.string(), error: z.string() });

export const parseResponse = z.object({
  success: z.literal(true),
  data: z.unknown().describe('JSON object or array, CSV text or markdown text'),
  workflow_status: z.enum(PARSE_WORKFLOW_STATUSES),
  output_format: z.enum(OUTPUT_FORMATS),
  pages_processed: z.number().int(),
  total_pages: z.number().int(),
  execution_time: z.number().int().describe('milliseconds'),
  warnings: z.array(z.string()),
  errors: z.array(pageError).describe('pages that could not be fetched and were skipped'),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  job_id: z.string(),
});

export const parseAccepted = z.object({
  success: z.literal(true),
  job_id: z.uuid(),
  type: z.literal('parse'),
  status: z.literal('processing'),
  status_url: z.string(),
});

/** The schema compiles and its patterns run (in the checker's thread), or a 400 naming the problem. */
async function checkSchema(checker: SchemaChecker, schema: unknown): Promise<void> {
  try {
    await checker.check(schema);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'INVALID_REQUEST') throw error;
    throw new BadRequest(`Invalid field 'schema': ${error.message.replace(/^schema: /, '')}`, { details: error.details });
  }
}

export const parseCreate = defineRoute<ParseCreateBody>({
  method: 'post',
  paths: ['/v1/parse', '/api/v1/parse'],
  summary:
    'Parse web data from a prompt: scrape or crawl the URLs it names and extract data with the language model. ' +
    '`stream: true` answers Server-Sent Events (`Accept: application/x-ndjson` for one JSON chunk per line); ' +
    '`async: true` answers 202 with a job id to follow at GET /v1/parse/{job_id}.',
  tag: 'Parse',
  body: parseCreateBody,
  // Every parse error body carries workflow_status, pages_processed and execution_time (a failed
  // job's own counts, already in its details, win).
  shapeError: (error, req) => parseError(error, { pagesProcessed: 0, executionTimeMs: Date.now() - req.receivedAt }),
  responses: {
    200: {
      description: 'Parsed (or, when streaming, a text/event-stream of spec 2.5 chunks ending with this body)',
      schema: parseResponse,
    },
    202: { description: 'Accepted (async: true)', schema: parseAccepted },
  },
  async handler({ body, req, res, deps, log, origin }) {
    if (body.stream && body.async) {
      throw new BadRequest("Invalid field 'async': cannot be combined with stream; choose one", { details: { field: 'async' } });
    }
    if (body.schema !== undefined) await checkSchema(deps.schemaChecker, body.schema);
    if (body.stream) enforceStreaming(req);
    const maxPages = enforcePagesPerRequest(req, body.max_pages, 'max_pages', PARSE_LIMITS.maxPages.default);
    if (!isModelConfigured(deps.config.llm)) throw modelNotConfigured();
    // Deterministic and cheap: a prompt without a URL is refused before anything is queued.
    analyzePrompt(body.prompt, { outputFormat: body.output_format });

    const run: ParseRun = {
      deps,
      log,
      res,
      startedAt: req.receivedAt,
      spec: {
        jobId: randomUUID(),
        payload: jobPayload(
          'parse',
          {
            request: {
              prompt: body.prompt,
              ...(body.schema === undefined ? {} : { schema: body.schema }),
              ...(body.output_format === undefined ? {} : { output_format: body.output_format }),
              max_depth: body.max_depth,
              max_pages: maxPages,
            },
          },
          { context: deps.config, owner: jobOwnerOf(req) },
        ),
      },
    };
    if (body.async) return queueParse(run, origin);
    if (body.stream) return streamParse(run, streamFramingOf(req.get('accept')));
    return awaitParse(run);
  },
});
