import { Unprocessable, modelNotConfigured, type JsonSchema } from '@sitelens/contracts';
import { compileUserSchema, type CompiledSchema } from '@sitelens/parse-input';
import { extractionMessages } from './extraction-prompt';
import { createLimiter, type Limiter } from './limit';
import { combinePageResults, hasMeaningfulData, isRecord, mergeValues } from './merge';
import { addUsage, emptyUsage, type ModelClient, type TokenUsage } from './model-client';
import { parseModelJson } from './model-json';
import { isObjectSchema, toProviderSchema, unwrapProviderResult, type ProviderSchema } from './provider-schema';
import { DEFAULT_TOKEN_BUDGET, preparePage, sharedTokenCounter, type TokenBudget, type TokenCounter } from './tokens';

export interface PageInput {
  url: string;
  /** Main-content markdown of the page. */
  markdown: string;
}

export interface PageResult {
  url: string;
  /** Position of the page in `pages`. */
  index: number;
  /** What the model extracted from this page (chunks merged, wrapper removed). */
  data: unknown;
}

export interface ExtractInput {
  prompt: string;
  pages: PageInput[];
  /** The user's JSON schema; the answer is bound to it and validated against it. */
  schema?: JsonSchema | undefined;
}

export interface ExtractOptions {
  model: ModelClient;
  /** Model calls in flight at once, across pages and chunks (PARSE_CONCURRENCY). */
  concurrency: number;
  /** Called as each page's data is ready (streamed as partial_results). */
  onPageResult?: (result: PageResult) => void;
  /** Aborting stops waiting calls and cancels those in flight. */
  signal?: AbortSignal;
  tokenBudget?: Partial<TokenBudget>;
  tokens?: TokenCounter;
}

export interface ExtractResult {
  /** Merged data: validated against the schema, or returned as extracted with a warning. */
  data: unknown;
  warnings: string[];
  usage: TokenUsage;
  /** Pages that yielded usable data. */
  pagesExtracted: number;
}

interface Run {
  prompt: string;
  provider: ProviderSchema | undefined;
  limit: Limiter;
  budget: TokenBudget;
  tokens: TokenCounter;
  signal: AbortSignal;
  model: ModelClient;
  usage: TokenUsage;
  warnings: string[];
}

type ChunkAnswer = { ok: true; value: unknown } | { ok: false; reason: string };

/** Asks the model about one chunk of a page and reads its answer. */
async function askChunk(run: Run, url: string, content: string, part: number, parts: number): Promise<ChunkAnswer> {
  const hasSchema = run.provider !== undefined;
  const messages = extractionMessages({ prompt: run.prompt, url, content, part, parts, hasSchema });
  const schema = run.provider ? { name: 'extract', jsonSchema: run.provider.schema } : undefined;
  const reply = await run.model.complete({ ...messages, schema, signal: run.signal });
  addUsage(run.usage, reply.usage);
  const read = parseModelJson(reply.text);
  if (!read.ok) return { ok: false, reason: read.reason };
  if (!hasSchema && !Array.isArray(read.value) && !isRecord(read.value)) {
    return { ok: false, reason: 'the answer is not a JSON object or array' };
  }
  return { ok: true, value: unwrapProviderResult(read.value, run.provider?.wrapped ?? false) };
}

/** Extracts one page: trims it to the budget, asks the model about each chunk, merges the answers. */
async function extractPage(run: Run, page: PageInput): Promise<{ ok: true; data: unknown } | { ok: false }> {
  const prepared = preparePage(page.markdown, run.budget, run.tokens);
  if (prepared.trimmed) {
    const total = prepared.tokens ?? run.budget.pageTokens;
    run.warnings.push(`${page.url}: page trimmed to its first ${run.budget.pageTokens} tokens (of at least ${total})`);
  }
  const parts = prepared.chunks.length;
  if (parts === 0) {
    run.warnings.push(`${page.url}: page has no content to extract from`);
    return { ok: false };
  }
  const answers = await Promise.all(
    prepared.chunks.map((content, i) => run.limit(() => askChunk(run, page.url, content, i + 1, parts))),
  );
  const values = answers.flatMap((answer) => (answer.ok ? [answer.value] : []));
  const reasons = answers.flatMap((answer) => (answer.ok ? [] : [answer.reason]));
  if (values.length === 0) {
    run.warnings.push(`${page.url}: no usable answer from the model (${reasons[0]})`);
    return { ok: false };
  }
  if (reasons.length > 0) run.warnings.push(`${page.url}: part of the page gave no usable answer (${reasons[0]})`);
  return { ok: true, data: values.reduce((merged, next) => mergeValues(merged, next)) };
}

/**
 * Why `data` does not match the user's schema, or undefined when it does. A schema describing one
 * record, met by a list of records (one per page), is checked record by record: checked whole, a
 * list would pass a schema that leaves out `type: object` without any record being looked at.
 */
function schemaMismatch(compiled: CompiledSchema, data: unknown): string | undefined {
  // Ajv's validate is a type guard; as a plain boolean it narrows nothing.
  const problems = (value: unknown): string | undefined => {
    try {
      return compiled.validate(value) ? undefined : compiled.describeErrors(compiled.validate.errors);
    } catch {
      // A recursive schema ($ref: '#') over an answer nested past the stack: a mismatch, not a crash.
      return 'could not be checked (nested too deeply)';
    }
  };
  if (!Array.isArray(data) || !isObjectSchema(compiled.schema)) return problems(data);
  const failing = data.flatMap((record, index) => {
    const reason = problems(record);
    return reason === undefined ? [] : [`record ${index + 1}: ${reason}`];
  });
  return failing.length === 0 ? undefined : failing.join('; ');
}

/**
 * Extracts data for a prompt from page markdown with the model: pages (and chunks of long pages)
 * run concurrently up to `concurrency`, each answer bound to the user's schema when there is one,
 * results merged across chunks and pages, then validated (spec 7, rule 2: data that fails the
 * schema is returned as extracted, with a warning). Throws `BadRequest` for a malformed schema,
 * `LLM_NOT_CONFIGURED` without a model, `LLM_ERROR` when the model keeps failing, and
 * `Unprocessable` when no page yields any data.
 */
export async function extractFromPages(input: ExtractInput, options: ExtractOptions): Promise<ExtractResult> {
  if (!options.model.configured) throw modelNotConfigured();
  const compiled = input.schema === undefined ? undefined : compileUserSchema(input.schema);
  if (input.pages.length === 0) throw new Unprocessable('No page content to extract data from');

  // One failing call (LLM_ERROR) or the caller's abort cancels every other call of this run.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const run: Run = {
    prompt: input.prompt,
    provider: compiled ? toProviderSchema(compiled.schema) : undefined,
    limit: createLimiter(options.concurrency),
    budget: { ...DEFAULT_TOKEN_BUDGET, ...options.tokenBudget },
    tokens: options.tokens ?? sharedTokenCounter(),
    signal: controller.signal,
    model: options.model,
    usage: emptyUsage(),
    warnings: [],
  };

  let results: unknown[];
  try {
    const outcomes = await Promise.all(
      input.pages.map(async (page, index) => {
        try {
          const outcome = await extractPage(run, page);
          if (outcome.ok) options.onPageResult?.({ url: page.url, index, data: outcome.data });
          return outcome;
        } catch (error) {
          controller.abort(error);
          throw error;
        }
      }),
    );
    results = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.data] : []));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }

  if (results.length === 0) {
    throw new Unprocessable(`No data could be extracted from the pages: ${run.warnings.join('; ')}`);
  }
  const data = combinePageResults(results);
  if (!hasMeaningfulData(data)) throw new Unprocessable('No data matching the prompt was found on the pages');

  const mismatch = compiled ? schemaMismatch(compiled, data) : undefined;
  if (mismatch) run.warnings.push(`Extracted data does not match the schema (${mismatch}); returned as extracted`);
  return { data, warnings: run.warnings, usage: run.usage, pagesExtracted: results.length };
}
