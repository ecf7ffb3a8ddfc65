/**
 * Fault: a screenshot worker is SIGKILLed while 24 jobs are in flight (some mid-capture, the rest
 * queued). Another worker process takes over: the queued ones at once, the interrupted ones once
 * their BullMQ lock lapses (stalled-job check), and every one of the 24 completes.
 */
import { sampleValue, waitForExit } from '@sitelens/testkit';
import {
  awaitShot,
  createShot,
  dropPrefix,
  imageSize,
  stackEnv,
  startGatewayProcess,
  startHoldingSite,
  startWorkerProcess,
  until,
  type HoldingSite,
  type RunningGateway,
  type RunningWorker,
} from './support/stack';

const JOBS = 24;
const CONCURRENCY = 4;

describe('fault: a screenshot worker killed mid-job', () => {
  let site: HoldingSite;
  let gateway: RunningGateway | undefined;
  const workers: RunningWorker[] = [];
  let env: Record<string, string> | undefined;

  afterAll(async () => {
    await gateway?.proc.stop();
    for (const worker of workers) await worker.cleanup();
    await site?.close();
    if (env) await dropPrefix(env.QUEUE_PREFIX);
  });

  it(`hands all ${JOBS} jobs to another worker process, and every one completes`, async () => {
    site = await startHoldingSite();
    env = stackEnv({ label: 'fault-kill', extra: { SCREENSHOT_CONCURRENCY: String(CONCURRENCY) } });
    gateway = await startGatewayProcess(env);
    const first = await startWorkerProcess(env);
    workers.push(first);

    // Every page is held open, so the first worker's slots fill with captures that cannot finish.
    const ids = await Promise.all(Array.from({ length: JOBS }, (_, i) => createShot(gateway!.origin, site.heldUrl(i))));
    await until(() => site.held.length >= CONCURRENCY, 20_000, `${CONCURRENCY} captures in flight`);
    const interrupted = site.held.map((search) => ids[Number(new URLSearchParams(search).get('t'))]);
    expect(interrupted).toHaveLength(CONCURRENCY);

    const { all: chromium } = first.browserPids();
    expect(chromium.length).toBeGreaterThan(0);
    await first.proc.stop('SIGKILL');
    // Chromium talks to the worker over a pipe: with the worker gone it must exit on its own
    // (in a container, tini reaps it), never keep rendering for nobody.
    expect(await waitForExit(chromium, 10_000)).toEqual([]);

    site.open();
    const second = await startWorkerProcess(env);
    workers.push(second);

    // Lock duration (30 s) plus one stalled-check interval (15 s) bounds the hand-over; the 80 s
    // deadline of each wait leaves room for the captures themselves on a busy machine.
    const results = await Promise.all(ids.map((id) => awaitShot(gateway!.origin, id, 80_000)));
    const summary = results.map((r) => `${r.job_id}:${r.status}:${r.code ?? ''}`);
    expect(results.filter((r) => r.status !== 'completed').map((r) => `${r.status} ${r.code} ${r.error}`)).toEqual([]);
    expect(summary).toHaveLength(JOBS);
    expect(results.every((r) => r.http_status === 200 && r.metadata.width === 400 && r.metadata.height === 300)).toBe(true);
    // The interrupted captures are among them, and were finished by the second worker.
    for (const id of interrupted) expect(results.find((r) => r.job_id === id)?.status).toBe('completed');
    const metrics = await (await fetch(`${second.opsUrl}/metrics`)).text();
    expect(sampleValue(metrics, 'sitelens_jobs_total', { queue: 'screenshot', outcome: 'completed' })).toBe(JOBS);
    expect(await imageSize(results[0].screenshot)).toEqual({ status: 200, width: 400, height: 300 });
  }, 120_000);
});
