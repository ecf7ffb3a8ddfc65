/**
 * Fair share on real BullMQ: parked jobs sit in `delayed` (not `wait`), a job that ends (completed
 * or failed) promotes the next parked one at once, jobs that reach a worker without the gate
 * (schedule ticks) are parked there without running, and local jobs are never capped.
 * Everything waits on worker events, never on sleeps.
 */
import type { Redis } from 'ioredis';
import type { Job, Worker } from 'bullmq';
import { QUEUES, type ScreenshotJobName, type ScreenshotJobPayload, type ScreenshotJobResult } from '@sitelens/contracts';
import {
  PARK_RECHECK_MS,
  createJobGate,
  createRedis,
  createScreenshotQueue,
  createWorker,
  type ScreenshotGate,
  type ScreenshotQueue,
} from '../src';
import { testRedisUrl, uniquePrefix } from '@sitelens/testkit';

type ShotJob = Job<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;

describe('JobGate', () => {
  let redis: Redis;
  let workerConnection: Redis;
  let queue: ScreenshotQueue;
  let gate: ScreenshotGate;
  let worker: Worker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName> | undefined;
  /** Running jobs, by id: settle one to end it. */
  const running = new Map<string, { finish(): void; fail(): void }>();
  let onStart: (id: string) => void = () => undefined;

  const payload = (owner?: string): ScreenshotJobPayload => ({
    request: { url: 'https://example.com' } as never,
    timeoutSeconds: 30,
    acceptedAt: Date.now(),
    ...(owner === undefined ? {} : { owner, plan: 'free' as const }),
  });
  const started = (count: number) =>
    new Promise<void>((resolve) => {
      onStart = () => {
        if (running.size >= count) resolve();
      };
      if (running.size >= count) resolve();
    });

  beforeEach(async () => {
    const prefix = uniquePrefix('gate');
    redis = createRedis(testRedisUrl(), 'worker');
    workerConnection = createRedis(testRedisUrl(), 'worker');
    queue = createScreenshotQueue({ connection: redis, prefix, retentionMs: 60_000 });
    gate = createJobGate(redis, queue, { prefix, queue: QUEUES.screenshot });
    const workerGate = createJobGate(
      workerConnection,
      createScreenshotQueue({ connection: workerConnection, prefix, retentionMs: 60_000 }),
      {
        prefix,
        queue: QUEUES.screenshot,
      },
    );
    running.clear();
    // A hook left by an earlier test (one that finishes every job it sees start) would end this
    // test's jobs if they start before the test sets its own: on a loaded machine they do.
    onStart = () => undefined;
    worker = createWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(
      QUEUES.screenshot,
      (job: ShotJob, token) =>
        workerGate.run(
          job,
          token,
          () =>
            new Promise<ScreenshotJobResult>((resolve, reject) => {
              const id = job.id as string;
              running.set(id, {
                finish: () => {
                  running.delete(id);
                  resolve({ key: id, contentType: 'image/png', metadata: {} as never });
                },
                fail: () => {
                  running.delete(id);
                  reject(new Error('failed on purpose'));
                },
              });
              onStart(id);
            }),
        ),
      { connection: workerConnection, prefix },
      { concurrency: 10, attempts: 1 } as never,
    );
  });

  afterEach(async () => {
    for (const job of [...running.values()]) job.fail();
    await worker?.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    redis.disconnect();
    workerConnection.disconnect();
  });

  it('runs at most the cap and promotes a parked job as soon as one ends, completed or failed', async () => {
    const ids = ['j1', 'j2', 'j3', 'j4'];
    for (const id of ids) await gate.add('screenshot', payload('owner-a'), { jobId: id, attempts: 1 });
    expect(await queue.getDelayedCount()).toBe(2);
    await started(2);
    expect([...running.keys()].sort()).toEqual(['j1', 'j2']);
    expect(await queue.getWaitingCount()).toBe(0);

    const promoted = new Promise<string>((resolve) => (onStart = resolve));
    running.get('j1')?.finish();
    expect(await promoted).toBe('j3');

    const next = new Promise<string>((resolve) => (onStart = resolve));
    running.get('j2')?.fail();
    expect(await next).toBe('j4');
    expect([...running.keys()].sort()).toEqual(['j3', 'j4']);
    expect(await gate.slots.parked('owner-a')).toEqual([]);
  });

  it('parks, without running, a job that reached the worker past the gate (a schedule tick)', async () => {
    await gate.add('screenshot', payload('owner-b'), { jobId: 'g1', attempts: 1 });
    await gate.add('screenshot', payload('owner-b'), { jobId: 'g2', attempts: 1 });
    await started(2);
    const picked = new Promise<void>((resolve) => worker?.once('active', () => resolve()));
    await queue.add('screenshot', payload('owner-b'), { jobId: 'tick', attempts: 1 });
    await picked;
    // The worker took it, found the key at its cap and put it back as delayed.
    const tick = await queue.getJob('tick');
    await new Promise<void>((resolve) => {
      const check = async () => ((await tick?.getState()) === 'delayed' ? resolve() : setImmediate(() => void check()));
      void check();
    });
    expect(running.has('tick')).toBe(false);
    expect(await gate.slots.parked('owner-b')).toEqual(['tick']);

    const promoted = new Promise<string>((resolve) => (onStart = resolve));
    running.get('g1')?.finish();
    expect(await promoted).toBe('tick');
  });

  it('runs a schedule tick parked at the worker once promoted, and the schedule goes on', async () => {
    await gate.add('screenshot', payload('owner-s'), { jobId: 's1', attempts: 1 });
    await gate.add('screenshot', payload('owner-s'), { jobId: 's2', attempts: 1 });
    await started(2);
    const errors: Error[] = [];
    worker?.on('error', (error) => errors.push(error));
    const picked = new Promise<void>((resolve) => worker?.once('active', () => resolve()));
    await queue.upsertJobScheduler('sched' as never, { every: 3_600_000 }, { name: 'screenshot', data: payload('owner-s') });
    await picked;
    const tick = await new Promise<string>((resolve) => {
      const check = async () => {
        const [id] = await gate.slots.parked('owner-s');
        const state = id ? await (await queue.getJob(id))?.getState() : undefined;
        if (id && state === 'delayed') resolve(id);
        else setImmediate(() => void check());
      };
      void check();
    });
    expect(tick).toMatch(/^repeat:sched:/);

    const promoted = new Promise<string>((resolve) => (onStart = resolve));
    running.get('s1')?.finish();
    expect(await promoted).toBe(tick);
    const next = (await queue.getDelayed()).map((job) => job.id);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/^repeat:sched:/);
    expect(next[0]).not.toBe(tick);
    expect(errors).toEqual([]);
  });

  it('lets jobs further back in line sleep longer between wakes', async () => {
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) await gate.add('screenshot', payload('owner-d'), { jobId: id, attempts: 1 });
    await started(2);
    expect(await gate.slots.parked('owner-d')).toEqual(['d3', 'd4', 'd5']);
    expect((await queue.getJob('d3'))?.delay).toBe(PARK_RECHECK_MS);
    expect((await queue.getJob('d5'))?.delay).toBe(2 * PARK_RECHECK_MS);
  });

  it('holds the cap under concurrent enqueues while jobs keep ending', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
    let most = 0;
    let done = 0;
    const allDone = new Promise<void>((resolve) => {
      onStart = () => {
        most = Math.max(most, running.size);
        // Each job ends as soon as it starts: slots are handed on while enqueues still arrive.
        setImmediate(() => {
          for (const job of [...running.values()]) job.finish();
        });
      };
      worker?.on('completed', () => {
        done += 1;
        if (done === ids.length) resolve();
      });
    });
    await Promise.all(ids.map((id) => gate.add('screenshot', payload('owner-c'), { jobId: id, attempts: 1 })));
    await allDone;
    expect(most).toBeLessThanOrEqual(2);
    expect(await gate.slots.running('owner-c')).toEqual([]);
    expect(await gate.slots.parked('owner-c')).toEqual([]);
  });

  it('never caps local jobs (no owner)', async () => {
    for (let i = 0; i < 6; i += 1) await gate.add('screenshot', payload(), { jobId: `local-${i}`, attempts: 1 });
    expect(await queue.getDelayedCount()).toBe(0);
    await started(6);
    expect(running.size).toBe(6);
  });
});
