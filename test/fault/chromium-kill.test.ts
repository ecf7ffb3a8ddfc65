/**
 * Fault: Chromium dies under a running screenshot worker (OOM killer, crash). The pool notices the
 * disconnect and launches a new browser; the next job succeeds, a job that was mid-capture is
 * retried and succeeds too, and nothing of the dead browser is left running.
 */
import { sampleValue, waitForExit } from '@sitelens/testkit';
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
  type RunningGateway,
  type RunningWorker,
} from './support/stack';

describe('fault: Chromium killed under a worker', () => {
  let site: HoldingSite;
  let gateway: RunningGateway;
  let worker: RunningWorker;
  let env: Record<string, string> | undefined;

  beforeAll(async () => {
    site = await startHoldingSite();
    env = stackEnv({ label: 'fault-chromium' });
    gateway = await startGatewayProcess(env);
    worker = await startWorkerProcess(env);
  });

  afterAll(async () => {
    await gateway?.proc.stop();
    expect(await worker?.cleanup()).toEqual([]);
    await site?.close();
    if (env) await dropPrefix(env.QUEUE_PREFIX);
  });

  async function launches(reason: string): Promise<number | undefined> {
    const text = await (await fetch(`${worker.opsUrl}/metrics`)).text();
    return sampleValue(text, 'sitelens_browser_launches_total', { reason });
  }

  /** SIGKILLs the worker's browser process and waits until it and its helpers are gone. */
  async function killBrowser(): Promise<number> {
    const { browser, all } = worker.browserPids();
    if (browser === undefined) throw new Error(`no Chromium under the worker\n${worker.proc.output()}`);
    process.kill(browser, 'SIGKILL');
    expect(await waitForExit(all, 10_000)).toEqual([]);
    return browser;
  }

  it('relaunches Chromium and completes the next job', async () => {
    const warm = await awaitShot(gateway.origin, await createShot(gateway.origin, site.pageUrl('warm')), 30_000);
    expect(warm.status).toBe('completed');
    expect(await launches('start')).toBe(1);

    const killed = await killBrowser();
    const next = await awaitShot(gateway.origin, await createShot(gateway.origin, site.pageUrl('next')), 30_000);
    expect([next.status, next.code]).toEqual(['completed', undefined]);
    expect(next.metadata).toMatchObject({ width: 400, height: 300 });

    const relaunched = worker.browserPids().browser;
    expect(relaunched).toBeDefined();
    expect(relaunched).not.toBe(killed);
    expect(await launches('crash')).toBe(1);
    expect((await fetch(`${worker.opsUrl}/readyz`)).status).toBe(200);
  });

  it('retries the capture Chromium died under, and it completes', async () => {
    const jobId = await createShot(gateway.origin, site.heldUrl('mid'));
    await until(() => site.held.length === 1, 15_000, 'the capture to be in flight');
    await killBrowser();
    site.open();
    const result = await awaitShot(gateway.origin, jobId, 30_000);
    expect([result.status, result.code]).toEqual(['completed', undefined]);
    expect(await launches('crash')).toBe(2);
    const text = await (await fetch(`${worker.opsUrl}/metrics`)).text();
    // The interrupted attempt counts as failed, its retry as completed; no page is left open.
    expect(sampleValue(text, 'sitelens_jobs_total', { outcome: 'failed' })).toBe(1);
    expect(sampleValue(text, 'sitelens_jobs_total', { outcome: 'completed' })).toBe(3);
    expect(sampleValue(text, 'sitelens_browser_pages_in_use')).toBe(0);
  });
});
