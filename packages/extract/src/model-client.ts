import { ChatOpenAICompletions } from '@langchain/openai';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { isModelConfigured } from '@sitelens/config';
import { AppError, modelNotConfigured, sleep, type Clock } from '@sitelens/contracts';
import type { Logger, Metrics } from '@sitelens/telemetry';
import { backoffDelay, classifyModelError, DEFAULT_RETRY_BASE_DELAY_MS, type ModelFailure } from './retry';
import type { JsonSchema } from '@sitelens/contracts';

/** The `llm` slice of the service config, plus knobs the composition root or tests may set. */
export interface ModelClientConfig {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  /** Retries after the first attempt (PARSE_MAX_RETRIES). */
  maxRetries: number;
  /** Cut-off of each attempt (PARSE_TIMEOUT). */
  timeoutMs: number;
  /** First backoff wait; each later wait doubles (default 500 ms). */
  retryBaseDelayMs?: number;
  /** How the schema reaches the model: `response_format: json_schema` (default) or a forced tool call. */
  structuredOutput?: 'jsonSchema' | 'functionCalling';
  /** Cap on tokens the model may write per call. */
  maxOutputTokens?: number;
}

export interface ModelClientDeps {
  logger?: Logger;
  metrics?: Pick<Metrics, 'modelCalls' | 'modelTokens'>;
  /** Source of backoff jitter, in [0, 1). */
  random?: () => number;
  /** The wait between attempts (tests record it instead of waiting on the wall clock). */
  sleep?: Clock['sleep'];
}

/** Token counts under the names the parse response uses. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface ModelRequest {
  system: string;
  user: string;
  /** When given, the answer is bound to this (provider-ready, top-level object) schema. */
  schema?: { name: string; jsonSchema: JsonSchema };
  signal?: AbortSignal;
}

export interface ModelReply {
  /** The answer text (message content, or the tool call's arguments); the caller parses it. */
  text: string;
  usage: TokenUsage;
  /** Requests made, the successful one included. */
  attempts: number;
}

export interface ModelClient {
  /** False when LLM_MODEL or both OPENAI_API_KEY and OPENAI_BASE_URL are missing; calls then fail. */
  readonly configured: boolean;
  readonly model: string | undefined;
  complete(request: ModelRequest): Promise<ModelReply>;
}

export function emptyUsage(): TokenUsage {
  return { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
}

export function addUsage(into: TokenUsage, more: TokenUsage): void {
  into.input_tokens += more.input_tokens;
  into.output_tokens += more.output_tokens;
  into.total_tokens += more.total_tokens;
}

// Reasoning models reject a temperature other than the default.
const REASONING_MODEL = /^(o\d|gpt-5(?!-chat))/;
// Models the library knows cannot take `response_format: json_schema`.
const LEGACY_MODEL = /^(gpt-3|gpt-4-|gpt-4$)/;

function textOf(message: BaseMessage): string {
  if (message instanceof AIMessage) {
    const call = message.tool_calls?.[0];
    if (call) return JSON.stringify(call.args);
    const invalid = message.invalid_tool_calls?.[0];
    if (typeof invalid?.args === 'string') return invalid.args;
  }
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function usageOf(message: BaseMessage): TokenUsage {
  const usage = message instanceof AIMessage ? message.usage_metadata : undefined;
  if (!usage) return emptyUsage();
  return { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens };
}

/**
 * `response_format: json_schema`, as `withStructuredOutput` would send it, with one difference:
 * the OpenAI SDK parses json_schema answers itself and throws the text away when it is not valid
 * JSON (a reply cut off at the token limit, a local model's stray comma). A non-enumerable
 * `$parseRaw` (the hook the SDK's own `zodResponseFormat` uses) replaces that parse, so the text
 * comes back untouched and the caller can repair it. The hook is not sent over the wire.
 */
function jsonSchemaFormat(name: string, schema: JsonSchema) {
  const format = { type: 'json_schema' as const, json_schema: { name, schema, strict: false } };
  Object.defineProperties(format, {
    $brand: { value: 'auto-parseable-response-format', enumerable: false },
    $parseRaw: { value: () => null, enumerable: false },
  });
  return format;
}

function schemaName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'extract';
}

/**
 * An OpenAI-compatible chat client (`@langchain/openai`, always the `/chat/completions` API that
 * every compatible server speaks) with exact retries: the library's own retries are off; timeouts,
 * 429, 5xx and dropped connections are retried `maxRetries` times with doubling backoff plus at
 * most 25% jitter, each attempt cut off at `timeoutMs`. Other provider errors fail at once. Every
 * failure surfaces as `AppError('LLM_ERROR')`; an unconfigured client fails with
 * `LLM_NOT_CONFIGURED` on use, so the rest of the service can run without a model.
 */
export function createModelClient(config: ModelClientConfig, deps: ModelClientDeps = {}): ModelClient {
  const configured = isModelConfigured(config);
  const model = config.model ?? '';
  const baseDelayMs = config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const method = config.structuredOutput ?? (LEGACY_MODEL.test(model) ? 'functionCalling' : 'jsonSchema');
  const random = deps.random ?? Math.random;
  const pause = deps.sleep ?? sleep;

  const chat = configured
    ? new ChatOpenAICompletions({
        model,
        // Local servers ignore the key, but the client library refuses to start without one.
        apiKey: config.apiKey || 'not-needed',
        configuration: config.baseUrl ? { baseURL: config.baseUrl } : {},
        maxRetries: 0,
        ...(REASONING_MODEL.test(model) ? {} : { temperature: 0 }),
        ...(config.maxOutputTokens ? { maxTokens: config.maxOutputTokens } : {}),
      })
    : undefined;

  async function attempt(client: ChatOpenAICompletions, request: ModelRequest, signal: AbortSignal) {
    const messages = [new SystemMessage(request.system), new HumanMessage(request.user)];
    if (request.schema && method === 'functionCalling') {
      const structured = client.withStructuredOutput(request.schema.jsonSchema, {
        name: schemaName(request.schema.name),
        method,
        includeRaw: true,
        strict: false,
      });
      // Only the raw message is used: arguments that are almost JSON are repaired by the caller.
      const { raw } = await structured.invoke(messages, { signal });
      return { text: textOf(raw), usage: usageOf(raw) };
    }
    const message = await client.invoke(messages, {
      signal,
      ...(request.schema ? { response_format: jsonSchemaFormat(schemaName(request.schema.name), request.schema.jsonSchema) } : {}),
    });
    return { text: textOf(message), usage: usageOf(message) };
  }

  function record(outcome: string, usage?: TokenUsage) {
    deps.metrics?.modelCalls.inc({ outcome });
    if (usage) {
      deps.metrics?.modelTokens.inc({ kind: 'input' }, usage.input_tokens);
      deps.metrics?.modelTokens.inc({ kind: 'output' }, usage.output_tokens);
    }
  }

  async function complete(request: ModelRequest): Promise<ModelReply> {
    if (!chat) throw modelNotConfigured();
    const client = chat;
    const outer = request.signal;
    for (let attempts = 1; ; attempts += 1) {
      outer?.throwIfAborted();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error('model call timed out')), config.timeoutMs);
      const signal = outer ? AbortSignal.any([outer, timeout.signal]) : timeout.signal;
      let failure: ModelFailure;
      try {
        const reply = await attempt(client, request, signal);
        record('success', reply.usage);
        return { ...reply, attempts };
      } catch (error) {
        // The caller gave up (client disconnect, another page failed): stop without retrying.
        if (outer?.aborted) throw outer.reason;
        failure = classifyModelError(error, timeout.signal.aborted);
      } finally {
        clearTimeout(timer);
      }
      record(failure.kind);
      const retriesLeft = config.maxRetries - (attempts - 1);
      if (!failure.retryable || retriesLeft <= 0) {
        deps.logger?.warn({ model, attempts, kind: failure.kind, status: failure.status }, 'model call failed');
        const tried = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
        throw new AppError('LLM_ERROR', `The language model failed (${tried}): ${failure.reason}`);
      }
      const delayMs = backoffDelay(attempts, baseDelayMs, random);
      deps.logger?.info({ model, attempt: attempts, kind: failure.kind, status: failure.status, delayMs }, 'retrying model call');
      await pause(delayMs, outer);
    }
  }

  return { configured, model: config.model, complete };
}
