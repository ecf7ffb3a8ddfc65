import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelClientConfig } from '@sitelens/extract';

/**
 * A scripted OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 speaking
 * `POST /v1/chat/completions` (non-streaming), answering from a queue of scripted steps. It
 * answers in the shape the request asked for: a forced tool call when `tools` are sent
 * (function calling), JSON content for `response_format: json_schema | json_object`, and plain
 * content otherwise. Like OpenAI, it rejects a response or tool schema whose top level is not
 * `type: object`. Every request is recorded (arrival time, body, mode) so tests can count attempts
 * and measure backoff gaps. Tests import it from `@sitelens/testkit/scripted-openai`; the parse and
 * gateway benchmarks compile this file with SWC.
 */

export type ScriptStep =
  | { type: 'json'; data: unknown; latencyMs?: number; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { type: 'text'; content: string; latencyMs?: number }
  | { type: 'error'; status: number; message: string; latencyMs?: number }
  | { type: 'hang' };

/** Builders for script steps. */
export const reply = {
  /** A well-formed answer holding `data` (as a tool call or JSON content, per the request). */
  json: (data: unknown, options: { latencyMs?: number } = {}): ScriptStep => ({ type: 'json', data, ...options }),
  /** Raw answer text, e.g. almost-JSON (single quotes, trailing commas, code fences). */
  text: (content: string, options: { latencyMs?: number } = {}): ScriptStep => ({ type: 'text', content, ...options }),
  error: (status: number, message = `scripted ${status}`, options: { latencyMs?: number } = {}): ScriptStep => ({
    type: 'error',
    status,
    message,
    ...options,
  }),
  rateLimited: (): ScriptStep => ({ type: 'error', status: 429, message: 'Rate limit reached for requests' }),
  serverError: (status = 500): ScriptStep => ({ type: 'error', status, message: 'The server had an error' }),
  /** Never answers; the client's own timeout has to give up. */
  hang: (): ScriptStep => ({ type: 'hang' }),
};

export type RequestMode = 'tools' | 'json_schema' | 'json_object' | 'text';

export interface RecordedRequest {
  /** `performance.now()` when the request body had arrived. */
  receivedAt: number;
  /** `performance.now()` when the answer was sent (unset while hanging). */
  respondedAt?: number;
  /** Set when the client closed the connection before an answer was sent (it gave up or was cancelled). */
  abandoned?: true;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  mode: RequestMode;
  /** Text of the user messages joined, to route answers by page. */
  userText: string;
  /** The schema the request bound the answer to (response_format or tool parameters). */
  schema: Record<string, unknown> | undefined;
}

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: unknown }[];
  tools?: { type: string; function: { name: string; parameters?: Record<string, unknown> } }[];
  tool_choice?: { type: string; function?: { name: string } } | string;
  response_format?: { type: string; json_schema?: { name: string; schema?: Record<string, unknown> } };
  [key: string]: unknown;
}

export interface ScriptedModelOptions {
  /** Latency added to every answer without its own. */
  latencyMs?: number;
  /** Answer when the queue is empty (default: a 500 saying the script ran out). */
  respond?: (request: RecordedRequest) => ScriptStep;
}

export interface ScriptedModel {
  /** Base URL to give the client (`OPENAI_BASE_URL`), ending in `/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Highest number of requests being answered at the same time. */
  readonly maxInFlight: number;
  enqueue(...steps: ScriptStep[]): void;
  /** Resolves once `condition` holds, checked whenever a request arrives or a connection closes. */
  until(condition: () => boolean): Promise<void>;
  /** Sets the answer used when the queue is empty. */
  respondWith(respond: (request: RecordedRequest) => ScriptStep): void;
  /** Client settings pointing at this server. */
  clientConfig(overrides?: Partial<ModelClientConfig>): ModelClientConfig;
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  }
  return '';
}

function modeOf(body: ChatBody): RequestMode {
  if (body.tools?.length) return 'tools';
  if (body.response_format?.type === 'json_schema') return 'json_schema';
  if (body.response_format?.type === 'json_object') return 'json_object';
  return 'text';
}

function schemaOf(body: ChatBody, mode: RequestMode): Record<string, unknown> | undefined {
  if (mode === 'tools') return body.tools?.[0]?.function.parameters;
  if (mode === 'json_schema') return body.response_format?.json_schema?.schema;
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function errorBody(message: string, status: number) {
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', param: null, code: null } };
}

function completion(request: RecordedRequest, step: Extract<ScriptStep, { type: 'json' | 'text' }>, n: number) {
  const content = step.type === 'json' ? JSON.stringify(step.data) : step.content;
  const promptChars = (request.body.messages ?? []).reduce((sum, message) => sum + textOf(message.content).length, 0);
  const usage =
    step.type === 'json' && step.usage
      ? step.usage
      : { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(content.length / 4) };
  const id = `chatcmpl-scripted-${n}`;
  const choice =
    request.mode === 'tools'
      ? {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${n}`,
                type: 'function',
                function: {
                  name:
                    typeof request.body.tool_choice === 'object' && request.body.tool_choice.function
                      ? request.body.tool_choice.function.name
                      : (request.body.tools?.[0]?.function.name ?? 'extract'),
                  arguments: content,
                },
              },
            ],
          },
        }
      : { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content } };
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model ?? 'scripted-model',
    choices: [choice],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** What OpenAI answers for a structured-output schema whose top level is not an object. */
function schemaProblem(request: RecordedRequest): string | undefined {
  if (!request.schema) return undefined;
  if (request.schema.type === 'object') return undefined;
  const where = request.mode === 'tools' ? 'function' : 'response_format';
  return `Invalid schema for ${where} 'extract': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(request.schema.type)}"'.`;
}

export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const queue: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  let respond = options.respond;
  let inFlight = 0;
  let maxInFlight = 0;
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const check of [...watchers]) check();
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      sendJson(res, 404, errorBody(`Unknown path ${req.method} ${path}`, 404));
      return;
    }
    let body: ChatBody;
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch {
      sendJson(res, 400, errorBody('Request body is not JSON', 400));
      return;
    }
    const mode = modeOf(body);
    const request: RecordedRequest = {
      receivedAt: performance.now(),
      path,
      headers: req.headers,
      body,
      mode,
      userText: (body.messages ?? [])
        .filter((m) => m.role === 'user')
        .map((m) => textOf(m.content))
        .join('\n'),
      schema: schemaOf(body, mode),
    };
    requests.push(request);
    notify();

    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let finished = false;
    const done = () => {
      if (!finished) {
        finished = true;
        inFlight -= 1;
        if (request.respondedAt === undefined) request.abandoned = true;
        notify();
      }
    };
    res.on('close', done);

    if (body.stream) {
      sendJson(res, 400, errorBody('The scripted model does not stream', 400));
      return;
    }
    const problem = schemaProblem(request);
    if (problem) {
      request.respondedAt = performance.now();
      sendJson(res, 400, errorBody(problem, 400));
      return;
    }
    const step = queue.shift() ?? respond?.(request) ?? reply.error(500, 'The scripted model ran out of script');
    if (step.type === 'hang') return; // held open until the client gives up or the server closes

    const latency = step.latencyMs ?? options.latencyMs ?? 0;
    if (latency > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, latency);
        res.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    request.respondedAt = performance.now();
    if (step.type === 'error') sendJson(res, step.status, errorBody(step.message, step.status));
    else sendJson(res, 200, completion(request, step, requests.length));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/v1`;

  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!condition()) return;
        watchers.delete(check);
        resolve();
      };
      watchers.add(check);
      check();
    });

  return {
    baseUrl,
    requests,
    until,
    get maxInFlight() {
      return maxInFlight;
    },
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    respondWith: (next) => {
      respond = next;
    },
    clientConfig: (overrides = {}) => ({
      baseUrl,
      apiKey: 'test-key',
      model: 'scripted-model',
      maxRetries: 0,
      timeoutMs: 5_000,
      retryBaseDelayMs: 50,
      ...overrides,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
