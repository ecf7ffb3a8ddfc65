/**
 * Watch schedules: BullMQ job schedulers on the parse queue, with a per-second custom cron so the
 * test sees many ticks. Two workers share the queue and every tick runs once; pause stops the
 * ticks and resume restarts them; a worker started later picks the schedule up from Redis; delete
 * removes the schedule, the results and every key.
 */
import { loadConfig } from '@sitelens/config';
import { createLogger, createMetrics } from '@sitelens/telemetry';
import { nextWatchCheck, watchSchedulerId } from '@sitelens/watch';
import { startParseWorker, type RunningParseWorker } from '../src/main';
import { startFixtureSite, type FixtureSite, contentWorkersForTests, testRedisUrl } from '@sitelens/testkit';
import { getJson, postJson } from '@sitelens/testkit/test-gateway';
import { pollUntil, startServiceStack, type ServiceStack } from './support/service-stack';
import { call } from './support/watch-fixtures';

describe('watch schedules', () => {
  let site: FixtureSite;
  let stack: ServiceStack;
  const extra: RunningParseWorker[] = [];
  let fetches = 0;

  const api = (path: string) => `${stack.origin}${path}`;
  const scheduled = async (id: string) =>
    (((await getJson(api(`/v1/watch/${id}`))).json.results as any[]) ?? []).filter((result) => result.trigger === 'schedule');
  /** The watch's tick jobs waiting, delayed or running: none left means no further tick can run. */
  const pendingTicks = async (id: string) =>
    (await stack.gateway.deps.queues.parse.getJobs(['active', 'waiting', 'delayed', 'prioritized'])).filter(
      (job) => job?.repeatJobKey === watchSchedulerId(id) || job?.id?.startsWith(`repeat:${watchSchedulerId(id)}:`),
    ).length;
  /** Waits (polling, with a deadline) until the watch has no tick left to run. */
  const ticksDrained = (id: string) =>
    pollUntil(
      () => pendingTicks(id),
      (pending) => pending === 0,
      20_000,
      100,
    );

  /** Another parse worker process, as far as Redis can tell: its own connections, context and worker. */
  async function startWorker(): Promise<RunningParseWorker> {
    const config = loadConfig({
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: stack.gateway.config.redis.prefix,
      DATA_DIR: stack.gateway.config.storage.dataDir,
      LOG_LEVEL: 'silent',
    });
    const logger = createLogger({ level: 'silent', service: 'parse-worker-test' });
    const worker = await startParseWorker(config, logger, createMetrics({ service: 'parse-worker-test', collectDefaults: false }), {
      contentWorkers: contentWorkersForTests(1),
    });
    extra.push(worker);
    return worker;
  }

  beforeAll(async () => {
    site = await startFixtureSite();
    site.route('/ticker', (_req, res) => {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Ticker</title></head><body><main><h1>Ticker</h1><p>A page that stays the same.</p></main></body></html>');
    });
    stack = await startServiceStack();
  });

  afterAll(async () => {
    for (const worker of extra) await worker.close().catch(() => undefined);
    await stack?.close();
    await site?.close();
  });

  it('runs every tick once across two workers, stops on pause, restarts on resume and goes on in a new worker', async () => {
    const second = await startWorker();
    const created = await postJson(api('/v1/watch'), {
      url: `${site.origin}/ticker`,
      frequency: 'custom',
      custom_frequency: '* * * * * *',
      notification_preference: 'all_runs',
    });
    expect(created.status).toBe(201);
    const id = created.json.watch_id as string;
    expect(created.json.watch).toMatchObject({ frequency: 'custom', custom_frequency: '* * * * * *' });

    const ticks = await pollUntil(
      () => scheduled(id),
      (list) => list.length >= 5,
      20_000,
      200,
    ).then((seen) => seen.at(-1)!);
    const times = ticks.map((result) => result.scheduled_for as string);
    expect(new Set(times).size).toBe(times.length);
    for (const time of times) expect(Date.parse(time) % 1000).toBe(0);

    // Pause: the schedule goes; at most a tick already running finishes.
    const paused = await call('PATCH', api(`/v1/watch/${id}/pause`));
    expect(paused.status).toBe(200);
    expect(paused.json).toMatchObject({ success: true, message: 'Watch paused', watch: { status: 'paused' } });
    // With the scheduler gone and no tick job left, nothing can add a result: count them then.
    expect(await stack.gateway.deps.queues.parse.getJobScheduler(watchSchedulerId(id))).toBeUndefined();
    await ticksDrained(id);
    const atPause = (await scheduled(id)).length;
    const pausedView = await getJson(api(`/v1/watch/${id}`));
    expect(pausedView.json.watch).toMatchObject({ status: 'paused', next_check: null });
    expect(await stack.gateway.deps.queues.parse.getJobScheduler(watchSchedulerId(id))).toBeUndefined();

    // A manual check still runs while paused.
    const manual = await call('POST', api(`/v1/watch/${id}/check`));
    expect(manual.json).toMatchObject({ success: true, message: 'Check completed', result: { trigger: 'manual', change_type: 'none' } });

    // Resume while no worker runs: the schedule waits in Redis, and a worker started later carries on.
    await second.close();
    extra.splice(extra.indexOf(second), 1);
    await stack.worker.worker.pause();
    const resumed = await call('PATCH', api(`/v1/watch/${id}/resume`));
    expect(resumed.json).toMatchObject({ success: true, message: 'Watch resumed', watch: { status: 'active' } });
    const next = await nextWatchCheck(stack.gateway.deps.queues.parse, id);
    expect(next).toBeGreaterThan(Date.now() - 1_000);
    // Once the next tick is due (polled, not slept), it is still waiting in Redis and has not run.
    await pollUntil(
      async () => Date.now(),
      (now) => now > next! + 200,
      20_000,
      100,
    );
    expect(await pendingTicks(id)).toBeGreaterThanOrEqual(1);
    expect((await scheduled(id)).length).toBe(atPause);
    await startWorker();
    stack.worker.worker.resume();
    const after = await pollUntil(
      () => scheduled(id),
      (list) => list.length >= atPause + 3,
      20_000,
      200,
    ).then((seen) => seen.at(-1)!);
    const allTimes = after.map((result) => result.scheduled_for as string);
    expect(new Set(allTimes).size).toBe(allTimes.length);

    // Delete: schedule, results and keys go; no tick runs after it.
    const deleted = await call('DELETE', api(`/v1/watch/${id}`));
    expect(deleted.json).toEqual({ success: true, message: 'Watch deleted' });
    const fetchedAtDelete = fetches;
    expect(await stack.gateway.deps.queues.parse.getJobScheduler(watchSchedulerId(id))).toBeUndefined();
    await ticksDrained(id);
    expect(fetches - fetchedAtDelete).toBeLessThanOrEqual(1);
    const keys = await stack.gateway.deps.redis.keys(`${stack.gateway.config.redis.prefix}:watch:${id}*`);
    expect(keys).toEqual([]);
    const list = await getJson(api('/v1/watch'));
    expect((list.json.watches as any[]).map((watch) => watch.id)).not.toContain(id);
  });

  it('fetches the page once per tick however many workers run', async () => {
    await startWorker();
    const before = fetches;
    const created = await postJson(api('/v1/watch'), {
      url: `${site.origin}/ticker`,
      frequency: 'custom',
      custom_frequency: '* * * * * *',
    });
    const id = created.json.watch_id as string;
    await pollUntil(
      () => scheduled(id),
      (list) => list.length >= 4,
      20_000,
      200,
    );
    await call('PATCH', api(`/v1/watch/${id}/pause`));
    await ticksDrained(id);
    const all = ((await getJson(api(`/v1/watch/${id}`))).json.results as any[]) ?? [];
    // Every check (the baseline and each tick) fetched the page once: no tick ran twice.
    expect(fetches - before).toBe(all.length);
    const times = all.filter((result) => result.trigger === 'schedule').map((result) => result.scheduled_for);
    expect(new Set(times).size).toBe(times.length);
    await call('DELETE', api(`/v1/watch/${id}`));
  });
});
