/**
 * The parse path end to end, in one process: a scripted OpenAI-compatible model server, a local
 * fixture site, the parse worker and a real gateway, sharing a private Redis prefix.
 */
import { loadConfig, type Env } from '@sitelens/config';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { startParseWorker, type RunningParseWorker } from '@sitelens/parse-worker';
import { startTestGateway, type TestGateway } from '@sitelens/testkit/test-gateway';
import type { AuthGuardOptions } from '@sitelens/gateway';
import { reply, startScriptedModel, type RecordedRequest, type ScriptStep, type ScriptedModel } from '@sitelens/testkit/scripted-openai';
import { contentWorkersForTests, schemaCheckerForTests, testRedisUrl, uniquePrefix } from '@sitelens/testkit';
import { startShopSite, type ShopSite } from './shop-site';

export interface ParseStack {
  gateway: TestGateway;
  /** Absent when started with `worker: false`. */
  worker?: RunningParseWorker;
  model: ScriptedModel;
  site: ShopSite;
  prefix: string;
  close(): Promise<void>;
}

export interface ParseStackOptions {
  /** Settings for both services (e.g. MODE, API_KEYS). */
  env?: Env;
  /** Settings for the gateway alone (e.g. no model, to see LLM_NOT_CONFIGURED). */
  gatewayEnv?: Env;
  workerEnv?: Env;
  auth?: AuthGuardOptions;
  /** false: no parse worker (jobs stay queued). */
  worker?: boolean;
  /** The worker's model client's wait between attempts (recorded by tests instead of timed). */
  model?: { random?: () => number; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> };
}

const logger = createLogger({ level: 'silent', service: 'parse-test' });

export async function startParseStack(options: ParseStackOptions = {}): Promise<ParseStack> {
  const model = await startScriptedModel();
  const site = await startShopSite();
  const prefix = uniquePrefix('parse');
  const shared: Env = {
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: 'test-key',
    LLM_MODEL: 'scripted-model',
    PARSE_MAX_RETRIES: '2',
    PARSE_TIMEOUT: '2s',
    ...options.env,
  };
  const gateway = await startTestGateway({ ...shared, ...options.gatewayEnv }, undefined, options.auth);
  let worker: RunningParseWorker | undefined;
  if (options.worker !== false) {
    // The worker saves results to the blob store the gateway reads them from.
    const dataDir = gateway.config.storage.dataDir;
    const config = loadConfig({ ...shared, ROLE: 'all', DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', ...options.workerEnv });
    const metrics = createMetrics({ service: 'parse-worker', collectDefaults: false });
    worker = await startParseWorker(config, logger, metrics, {
      contentWorkers: contentWorkersForTests(),
      schemaChecker: schemaCheckerForTests(),
      model: options.model,
    });
  }
  return {
    gateway,
    worker,
    model,
    site,
    prefix,
    async close() {
      await worker?.close();
      await gateway.close();
      await model.close();
      await site.close();
    },
  };
}

/** Answers by the page the request is about ("Page: <url>" in the prompt sent to the model). */
export function byPage(
  answers: Record<string, ScriptStep>,
  fallback: ScriptStep = reply.json({}),
): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const url = /Page: (\S+)/.exec(request.userText)?.[1] ?? '';
    return answers[url] ?? fallback;
  };
}

export function pagesAsked(model: ScriptedModel): string[] {
  return model.requests.map((request) => /Page: (\S+)/.exec(request.userText)?.[1] ?? '?');
}

/** Reads a streamed response to its end and splits it into events (SSE) or lines (NDJSON). */
export async function readStream(response: Response, framing: 'sse' | 'ndjson') {
  const text = await response.text();
  const separator = framing === 'sse' ? '\n\n' : '\n';
  const frames = text.split(separator).filter((frame) => frame.length > 0);
  return { text, frames };
}
