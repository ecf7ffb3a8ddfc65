import { Unprocessable, modelNotConfigured, type JsonSchema } from '@sitelens/contracts';
import { compileUserSchema, schemaMismatch, type SchemaChecker } from '@sitelens/parse-input';
import { extractionMessages } from './extraction-prompt';
import { createLimiter, type Limiter } from './limit';
import { combinePageResults, hasMeaningfulData, isRecord, mergeValues } from './merge';
import { addUsage, emptyUsage, type ModelClient, type TokenUsage } from './model-client';
import { parseModelJson } from './model-json';
import { toProviderSchema, unwrapProviderResult, type ProviderSchema } from './provider-schema';
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
  /**
   * Compiles the schema and checks the model's answer against it in a thread under a deadline
   * (the parse worker's); without it both run here, unbounded (tests, small schemas).
   */
  schemaChecker?: Pick<SchemaChecker, 'check' | 'mismatch'>;
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
  const answers = await Promise.all(prepared.chunks.map((content, i) => run.limit(() => askChunk(run, page.url, content, i + 1, parts))));
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
 * Extracts data for a prompt from page markdown with the model: pages (and chunks of long pages)
 * run concurrently up to `concurrency`, each answer bound to the user's schema when there is one,
 * results merged across chunks and pages, then validated (spec 7, rule 2: data that fails the
 * schema is returned as extracted, with a warning). Throws `BadRequest` for a malformed schema,
 * `LLM_NOT_CONFIGURED` without a model, `LLM_ERROR` when the model keeps failing, and
 * `Unprocessable` when no page yields any data.
 */
export async function extractFromPages(input: ExtractInput, options: ExtractOptions): Promise<ExtractResult> {
  if (!options.model.configured) throw modelNotConfigured();
  const checker = options.schemaChecker;
  if (checker && input.schema !== undefined) await checker.check(input.schema);
  const compiled = input.schema === undefined || checker ? undefined : compileUserSchema(input.schema);
  const schema = input.schema as JsonSchema | undefined;
  if (input.pages.length === 0) throw new Unprocessable('No page content to extract data from');

  // One failing call (LLM_ERROR) or the caller's abort cancels every other call of this run.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const run: Run = {
    prompt: input.prompt,
    provider: schema ? toProviderSchema(schema) : undefined,
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

  const mismatch =
    schema === undefined
      ? undefined
      : checker
        ? await checker.mismatch(schema, data)
        : compiled
          ? schemaMismatch(compiled, data)
          : undefined;
  if (mismatch) run.warnings.push(`Extracted data does not match the schema (${mismatch}); returned as extracted`);
  return { data, warnings: run.warnings, usage: run.usage, pagesExtracted: results.length };
}
