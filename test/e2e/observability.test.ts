/**
 * Observability on a running instance: gateway, screenshot worker and parse worker as separate
 * processes, a local page and a scripted OpenAI-compatible model. Every probe answers, and every
 * metric the operations guide lists is exported and moves with real work: HTTP latency and
 * status, queue depth, jobs by queue and outcome, job duration, browser pool use and launches,
 * model calls and tokens.
 */
import { startScriptedModel, type ScriptedModel } from '@sitelens/testkit/scripted-openai';
import { sampleValue, freePort, startService, type ServiceProcess } from '@sitelens/testkit';
import {
  awaitShot,
  createShot,
  dropPrefix,
  stackEnv,
  startGatewayProcess,
  startHoldingSite,
  startWorkerProcess,
  until,
  type HoldingSite,
  type Json,
  type RunningGateway,
  type RunningWorker,
} from '../fault/support/stack';

const metricsOf = async (url: string) => (await fetch(`${url}/metrics`)).text();

describe('metrics and probes of a running instance', () => {
  let site: HoldingSite;
  let model: ScriptedModel;
  let gateway: RunningGateway;
  let screenshots: RunningWorker;
  let parse: ServiceProcess;
  let parseOps: string;
  let env: Record<string, string> | undefined;

  beforeAll(async () => {
    site = await startHoldingSite();
    model = await startScriptedModel();
    model.respondWith(() => ({ type: 'json', data: { title: 'fault' }, usage: { prompt_tokens: 120, completion_tokens: 8 } }));
    env = stackEnv({ label: 'observe', extra: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'sk-test', LLM_MODEL: 'scripted' } });
    gateway = await startGatewayProcess(env);
    screenshots = await startWorkerProcess(env);
    const port = await freePort();
    parseOps = `http://127.0.0.1:${port}`;
    parse = startService({ ...env, ROLE: 'parse-worker', OPS_HTTP_ADDR: `127.0.0.1:${port}` });
    await until(async () => (await fetch(`${parseOps}/readyz`).catch(() => undefined))?.status === 200, 20_000, 'parse worker ready');
  });

  afterAll(async () => {
    await gateway?.proc.stop();
    await screenshots?.cleanup();
    await parse?.stop();
    await model?.close();
    await site?.close();
    if (env) await dropPrefix(env.QUEUE_PREFIX);
  });

  it('serves the probes: gateway health, worker liveness and readiness', async () => {
    const health = (await (await fetch(`${gateway.origin}/v1/health`)).json()) as Json;
    expect(health).toMatchObject({ status: 'ok', components: { redis: 'ok', storage: 'ok' } });
    for (const ops of [screenshots.opsUrl, parseOps]) {
      expect((await fetch(`${ops}/healthz`)).status).toBe(200);
      expect(((await (await fetch(`${ops}/readyz`)).json()) as Json).status).toBe('ok');
    }
  });

  it('moves the screenshot metrics: pages in use while capturing, jobs, duration, HTTP, queue depth', async () => {
    const jobId = await createShot(gateway.origin, site.heldUrl('observe'));
    await until(() => site.held.length === 1, 15_000, 'the capture to be in flight');
    expect(sampleValue(await metricsOf(screenshots.opsUrl), 'sitelens_browser_pages_in_use')).toBe(1);
    site.open();
    expect((await awaitShot(gateway.origin, jobId, 30_000)).status).toBe('completed');

    const worker = await metricsOf(screenshots.opsUrl);
    const done = { queue: 'screenshot', name: 'screenshot', outcome: 'completed', service: 'screenshot-worker' };
    expect(sampleValue(worker, 'sitelens_jobs_total', done)).toBe(1);
    expect(sampleValue(worker, 'sitelens_job_duration_seconds_count', done)).toBe(1);
    expect(sampleValue(worker, 'sitelens_job_duration_seconds_sum', done)).toBeGreaterThan(0);
    expect(sampleValue(worker, 'sitelens_browser_pages_in_use')).toBe(0);
    expect(sampleValue(worker, 'sitelens_browser_launches_total', { reason: 'start' })).toBe(1);
    expect(sampleValue(worker, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const front = await metricsOf(gateway.origin);
    const created = { method: 'POST', route: '/v1/screenshots', status: '202', service: 'gateway' };
    expect(sampleValue(front, 'sitelens_http_requests_total', created)).toBe(1);
    expect(sampleValue(front, 'sitelens_http_request_duration_seconds_count', created)).toBe(1);
    expect(
      sampleValue(front, 'sitelens_http_requests_total', { route: '/v1/screenshots', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(front, 'sitelens_queue_jobs', { queue: 'screenshot', state: 'completed' })).toBe(1);
    expect(sampleValue(front, 'sitelens_queue_jobs', { queue: 'screenshot', state: 'waiting' })).toBe(0);
  });

  it('moves the parse metrics: jobs on the parse queue, model calls and tokens', async () => {
    const response = await fetch(`${gateway.origin}/v1/parse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        prompt: `Extract the page title from ${site.pageUrl('parse')}`,
        schema: { type: 'object', properties: { title: { type: 'string' } } },
      }),
    });
    const body = (await response.json()) as Json;
    expect([response.status, body.success, body.data]).toEqual([200, true, { title: 'fault' }]);

    const worker = await metricsOf(parseOps);
    expect(sampleValue(worker, 'sitelens_jobs_total', { queue: 'parse', name: 'parse', outcome: 'completed' })).toBe(1);
    expect(sampleValue(worker, 'sitelens_job_duration_seconds_count', { queue: 'parse', name: 'parse' })).toBe(1);
    const calls = model.requests.length;
    expect(calls).toBeGreaterThan(0);
    expect(sampleValue(worker, 'sitelens_model_calls_total', { outcome: 'success' })).toBe(calls);
    expect(sampleValue(worker, 'sitelens_model_tokens_total', { kind: 'input' })).toBe(120 * calls);
    expect(sampleValue(worker, 'sitelens_model_tokens_total', { kind: 'output' })).toBe(8 * calls);
  });
});
