/**
 * Fault: the gateway is replaced (a rolling update, a crash and restart) while jobs exist and one
 * is still running. The old process stops promptly, answering its open long-poll and a request
 * waiting for its image instead of dropping them; the new one, on the same Redis and store, serves every old job with fresh image
 * URLs, and URLs the old one handed out keep working until they expire.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleValue } from '@sitelens/testkit';
import {
  awaitShot,
  createShot,
  dropPrefix,
  imageSize,
  stackEnv,
  startGatewayProcess,
  startHoldingSite,
  startWorkerProcess,
  SMALL_SHOT,
  until,
  type HoldingSite,
  type Json,
  type RunningGateway,
  type RunningWorker,
} from './support/stack';

const STORES = [
  ['S3 (s3rver)', () => 's3' as const],
  ['filesystem (shared DATA_DIR)', () => ({ dataDir: mkdtempSync(path.join(tmpdir(), 'sitelens-fault-fs-')) })],
] as const;

describe.each(STORES)('fault: gateway replaced, %s', (_name, storage) => {
  let site: HoldingSite;
  const gateways: RunningGateway[] = [];
  let worker: RunningWorker;
  let env: Record<string, string> | undefined;

  afterAll(async () => {
    for (const gateway of gateways) await gateway.proc.stop();
    await worker?.cleanup();
    await site?.close();
    if (env) await dropPrefix(env.QUEUE_PREFIX);
  });

  it('stops the old gateway promptly and serves every old job from the new one', async () => {
    site = await startHoldingSite();
    env = stackEnv({ label: 'fault-gw', storage: storage() });
    const first = await startGatewayProcess(env);
    gateways.push(first);
    worker = await startWorkerProcess(env);

    const done = await createShot(first.origin, site.pageUrl('done'));
    const before = await awaitShot(first.origin, done, 30_000);
    expect(before.status).toBe('completed');
    const running = await createShot(first.origin, site.heldUrl('running'));
    // A second client waits for its image bytes in the same request (stream: true).
    const streamed = fetch(`${first.origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.heldUrl('streamed'), ...SMALL_SHOT, stream: true }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
    await until(() => site.held.length === 2, 15_000, 'both held captures to be in flight');

    // A client long-polls the running job on the old gateway while it is told to stop.
    const polling = fetch(`${first.origin}/v1/screenshots?job_id=${running}&wait=60`).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Json,
    }));
    // The gateway has the long poll once it counts two GETs in flight: the poll and this scrape.
    const getsInFlight = async () =>
      sampleValue(await (await fetch(`${first.origin}/metrics`)).text(), 'sitelens_http_requests_in_flight', { method: 'GET' }) ?? 0;
    await until(async () => (await getsInFlight()) >= 2, 15_000, 'the long poll to reach the gateway');
    // Exit code 0: it stopped before serve.js's own deadline (SHUTDOWN_TIMEOUT + 5 s) would exit 1.
    expect(await first.proc.stop('SIGTERM')).toBe(0);
    expect(await polling).toEqual({ status: 202, body: { success: true, job_id: running, status: 'processing' } });
    // The streamed request is told to retry, with the id of the job that goes on without it.
    const cut = await streamed;
    expect(cut.status).toBe(503);
    expect(cut.body).toMatchObject({ success: false, code: 'UNAVAILABLE', error: 'The service is restarting; send the request again' });
    const streamedId = cut.body.job_id as string;
    expect(typeof streamedId).toBe('string');

    // Both jobs finish while no gateway runs.
    site.open();
    await until(
      async () =>
        sampleValue(await (await fetch(`${worker.opsUrl}/metrics`)).text(), 'sitelens_jobs_total', { outcome: 'completed' }) === 3,
      20_000,
      'the held jobs to complete',
    );

    // The replacement takes the same address.
    const second = await startGatewayProcess(env, first.port);
    gateways.push(second);
    for (const id of [done, running, streamedId]) {
      const view = await awaitShot(second.origin, id, 5_000);
      expect([view.http_status, view.success, view.status]).toEqual([200, true, 'completed']);
      expect(await imageSize(view.screenshot)).toEqual({ status: 200, width: 400, height: 300 });
      const lookup = (await (await fetch(`${second.origin}/api/v1/crawl/${id}`)).json()) as Json;
      expect(lookup).toMatchObject({ success: true, job_id: id, type: 'screenshot', status: 'completed' });
    }
    const again = await awaitShot(second.origin, done, 5_000);
    expect(again.screenshot).not.toBe(before.screenshot);
    // The URL the old gateway signed still opens: the signing key outlived the process.
    expect(await imageSize(before.screenshot)).toEqual({ status: 200, width: 400, height: 300 });
  }, 90_000);
});
