/**
 * The worker skeleton both workers use, on real Redis and BullMQ: a job past its deadline fails
 * JOB_TIMEOUT without running, the work's errors keep their codes and say whether a retry may
 * help, and results come back as they were returned.
 */
import { QueueEvents } from 'bullmq';
import {
  AppError,
  JOB_DEADLINE_MARGIN_SECONDS,
  QUEUES,
  decodeJobError,
  type ScreenshotJobName,
  type ScreenshotJobPayload,
  type ScreenshotJobResult,
} from '@sitelens/contracts';
import { createRedis, createScreenshotQueue, startJobWorker, type JobWorker, type ScreenshotQueue } from '../src';
import { testRedisUrl, uniquePrefix } from '@sitelens/testkit';

type Hooks = Parameters<typeof startJobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>>[2];

/** A worker skeleton on its own queue prefix (two slots unless told), the queue to feed it and its events. */
interface TestWorker {
  queue: ScreenshotQueue;
  events: QueueEvents;
  jobs: JobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;
  close(): Promise<void>;
}

async function startTestWorker(
  label: string,
  hooks: Hooks,
  settings: { deferMs?: number; concurrency?: number; prefetch?: number; handBackMs?: number } = {},
): Promise<TestWorker> {
  const prefix = uniquePrefix(label);
  const redis = createRedis(testRedisUrl(), 'worker');
  const connection = createRedis(testRedisUrl(), 'worker');
  const eventsConnection = createRedis(testRedisUrl(), 'worker');
  const queue = createScreenshotQueue({ connection: redis, prefix, retentionMs: 60_000 });
  const events = new QueueEvents(QUEUES.screenshot, { connection: eventsConnection, prefix });
  await events.waitUntilReady();
  const jobs = startJobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(
    QUEUES.screenshot,
    { connection, prefix, retentionMs: 60_000, concurrency: 2, queueTimeoutMs: 60_000, ...settings },
    hooks,
  );
  return {
    queue,
    events,
    jobs,
    async close() {
      await jobs.worker.close();
      await jobs.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
      redis.disconnect();
      connection.disconnect();
      eventsConnection.disconnect();
    },
  };
}

describe('startJobWorker', () => {
  let worker: TestWorker;
  let queue: ScreenshotQueue;
  let events: QueueEvents;
  const ran: string[] = [];
  const measured: string[] = [];

  beforeAll(async () => {
    worker = await startTestWorker('job-worker', {
      process: async (job) => {
        ran.push(String(job.id));
        const url = job.data.request.url ?? '';
        if (url.endsWith('/blocked')) throw new AppError('URL_BLOCKED', 'Not allowed');
        if (url.endsWith('/flaky')) throw new AppError('UNAVAILABLE', 'Store down', { retryable: true });
        return { key: `k-${job.id}`, contentType: 'image/png', metadata: {} as never };
      },
      measure: async (job, work) => {
        measured.push(String(job.id));
        return work();
      },
    });
    ({ queue, events } = worker);
  });

  afterAll(async () => {
    await worker?.close();
  });

  const add = (id: string, url: string, acceptedAt = Date.now()) =>
    queue.add(
      'screenshot',
      { request: { url } as never, timeoutSeconds: 10, acceptedAt },
      { jobId: id, attempts: 2, backoff: { type: 'fixed', delay: 1 } },
    );

  it('returns the work’s result', async () => {
    const job = await add('ok', 'https://example.com/');
    expect(await job.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-ok' });
  });

  it('fails a job past its deadline with JOB_TIMEOUT, without running it', async () => {
    const job = await add('late', 'https://example.com/', Date.now() - 60_000 - 120_000);
    await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow();
    const failed = await queue.getJob('late');
    expect(decodeJobError(failed?.failedReason).code).toBe('JOB_TIMEOUT');
    expect(failed?.attemptsMade).toBe(1);
    expect(ran).not.toContain('late');
    expect(measured).toContain('late');
  });

  it('does not retry a request’s own error, and retries an infrastructure one', async () => {
    const blocked = await add('blocked', 'https://example.com/blocked');
    await expect(blocked.waitUntilFinished(events, 30_000)).rejects.toThrow();
    const flaky = await add('flaky', 'https://example.com/flaky');
    await expect(flaky.waitUntilFinished(events, 30_000)).rejects.toThrow();
    expect((await queue.getJob('blocked'))?.attemptsMade).toBe(1);
    expect(decodeJobError((await queue.getJob('blocked'))?.failedReason).code).toBe('URL_BLOCKED');
    expect((await queue.getJob('flaky'))?.attemptsMade).toBe(2);
    expect(decodeJobError((await queue.getJob('flaky'))?.failedReason).code).toBe('UNAVAILABLE');
  });
});

describe('startJobWorker: no key holds every slot of a process', () => {
  let worker: TestWorker;
  let queue: ScreenshotQueue;
  let events: QueueEvents;
  /** Jobs of key A hold their slot until released: a never-ending page. */
  const holds = new Map<string, () => void>();
  const started: string[] = [];
  let mostOfA = 0;
  let runningOfA = 0;

  beforeAll(async () => {
    worker = await startTestWorker(
      'job-worker-share',
      {
        process: async (job) => {
          started.push(String(job.id));
          if (job.data.owner === 'key-a') {
            runningOfA += 1;
            mostOfA = Math.max(mostOfA, runningOfA);
            await new Promise<void>((release) => holds.set(String(job.id), release));
            runningOfA -= 1;
          }
          return { key: `k-${job.id}`, contentType: 'image/png', metadata: {} as never };
        },
      },
      { deferMs: 200 },
    );
    ({ queue, events } = worker);
  });

  afterAll(async () => {
    for (const release of holds.values()) release();
    await worker?.close();
  });

  const add = (id: string, owner: string) =>
    queue.add(
      'screenshot',
      { request: { url: 'https://example.com/' } as never, timeoutSeconds: 10, acceptedAt: Date.now(), owner, plan: 'free' },
      { jobId: id },
    );

  it('runs another key’s job in the last slot while one key’s jobs hold the rest, then the held job', async () => {
    const a1 = await add('a1', 'key-a');
    const a2 = await add('a2', 'key-a');
    // a1 holds one slot; a2 may not take the last one, so b1 gets it and completes.
    await new Promise<void>((resolve) => {
      const check = () => (holds.has('a1') || holds.has('a2') ? resolve() : setTimeout(check, 10));
      check();
    });
    const b1 = await add('b1', 'key-b');
    expect(await b1.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-b1' });
    expect(runningOfA).toBe(1);
    // Once the first of key A's jobs ends, the other runs.
    const first = holds.has('a1') ? 'a1' : 'a2';
    holds.get(first)!();
    await (first === 'a1' ? a1 : a2).waitUntilFinished(events, 30_000);
    await new Promise<void>((resolve) => {
      const check = () => (holds.size === 2 ? resolve() : setTimeout(check, 10));
      check();
    });
    holds.get(first === 'a1' ? 'a2' : 'a1')!();
    await (first === 'a1' ? a2 : a1).waitUntilFinished(events, 30_000);
    expect(mostOfA).toBe(1);
    expect(started.filter((id) => id === 'b1')).toEqual(['b1']);
  });
});

/** Jobs that keep their slot until the test releases them (a never-ending page), told as each begins to hold. */
class HeldJobs {
  private readonly releases = new Map<string, () => void>();
  private readonly waiters = new Map<string, () => void>();

  /** The work of job `id`: ends when the test releases it. */
  hold(id: string): Promise<void> {
    return new Promise<void>((release) => {
      this.releases.set(id, release);
      this.waiters.get(id)?.();
    });
  }

  /** Resolves once job `id` holds its slot. */
  held(id: string): Promise<void> {
    if (this.releases.has(id)) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.set(id, resolve));
  }

  release(id: string): void {
    this.releases.get(id)?.();
  }

  releaseAll(): void {
    for (const release of this.releases.values()) release();
  }
}

describe('startJobWorker: a job picked up ahead (prefetch)', () => {
  let worker: TestWorker;
  let queue: ScreenshotQueue;
  let events: QueueEvents;
  /** Jobs whose URL ends in /hold keep their slot until released. */
  const holds = new HeldJobs();
  const started: string[] = [];
  const measured: string[] = [];
  const pickedUp = new Map<string, () => void>();

  beforeAll(async () => {
    worker = await startTestWorker(
      'job-worker-prefetch',
      {
        process: async (job) => {
          started.push(String(job.id));
          if (job.data.request.url?.endsWith('/hold')) await holds.hold(String(job.id));
          return { key: `k-${job.id}`, contentType: 'image/png', metadata: {} as never };
        },
        measure: async (job, work) => {
          measured.push(String(job.id));
          return work();
        },
      },
      // Never handed back here (that is the next describe's).
      { concurrency: 1, prefetch: 1, handBackMs: 600_000 },
    );
    ({ queue, events } = worker);
    worker.jobs.worker.on('active', (job) => pickedUp.get(String(job.id))?.());
  });

  afterAll(async () => {
    holds.releaseAll();
    await worker?.close();
  });

  const add = (id: string, path: string, acceptedAt = Date.now()) =>
    queue.add('screenshot', { request: { url: `https://example.com${path}` } as never, timeoutSeconds: 10, acceptedAt }, { jobId: id });
  const whenPickedUp = (id: string) => new Promise<void>((resolve) => pickedUp.set(id, resolve));

  it('holds one job beyond its slots, picked up but not run, and runs it as soon as the slot frees', async () => {
    const holding = await add('hold-1', '/hold');
    await holds.held('hold-1');
    const picked = whenPickedUp('next-1');
    const next = await add('next-1', '/');
    await picked;
    expect(await next.getState()).toBe('active');
    expect(started).not.toContain('next-1');
    // A third job stays on the waiting list: one slot, one job ahead.
    const third = await add('third-1', '/');
    expect(await third.getState()).toBe('waiting');
    holds.release('hold-1');
    await holding.waitUntilFinished(events, 30_000);
    expect(await next.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-next-1' });
    expect(await third.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-third-1' });
    expect(started.slice(-3)).toEqual(['hold-1', 'next-1', 'third-1']);
  });

  it('fails a job that waits for a slot past its deadline with JOB_TIMEOUT, without running it', async () => {
    const holding = await add('hold-2', '/hold');
    await holds.held('hold-2');
    // Its deadline (accepted + queue timeout + its own timeout + margin) is 3 s away when it is added.
    const deadlineIn = 3_000;
    const acceptedAt = Date.now() - 60_000 - (10 + JOB_DEADLINE_MARGIN_SECONDS) * 1000 + deadlineIn;
    const picked = whenPickedUp('waits-too-long');
    const waiting = await add('waits-too-long', '/', acceptedAt);
    await picked;
    await expect(waiting.waitUntilFinished(events, 30_000)).rejects.toThrow('waited for a free slot past its deadline');
    const failed = await queue.getJob('waits-too-long');
    expect(decodeJobError(failed?.failedReason).code).toBe('JOB_TIMEOUT');
    expect(started).not.toContain('waits-too-long');
    expect(measured).toContain('waits-too-long');
    // The held job was not disturbed, and the slot is still the process's one.
    expect(await holding.getState()).toBe('active');
    holds.release('hold-2');
    await holding.waitUntilFinished(events, 30_000);
    const after = await add('after', '/');
    expect(await after.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-after' });
  });
});

describe('startJobWorker: a job ahead that finds no slot goes back to the waiting list', () => {
  const prefix = uniquePrefix('job-worker-hand-back');
  const connections = Array.from({ length: 4 }, () => createRedis(testRedisUrl(), 'worker'));
  const [queueConnection, eventsConnection, busyConnection, idleConnection] = connections;
  const queue = createScreenshotQueue({ connection: queueConnection, prefix, retentionMs: 60_000 });
  const events = new QueueEvents(QUEUES.screenshot, { connection: eventsConnection, prefix });
  const holds = new HeldJobs();
  const ranOn: Array<[string, string]> = [];
  const busyPickups: string[] = [];
  const worker = (name: string, connection: typeof busyConnection, settings: { prefetch?: number; handBackMs?: number }) =>
    startJobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>(
      QUEUES.screenshot,
      { connection, prefix, retentionMs: 60_000, concurrency: 1, queueTimeoutMs: 60_000, ...settings },
      {
        process: async (job) => {
          ranOn.push([String(job.id), name]);
          if (job.data.request.url?.endsWith('/hold')) await holds.hold(String(job.id));
          return { key: `k-${job.id}`, contentType: 'image/png', metadata: {} as never };
        },
      },
    );
  let busy: JobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName>;
  let idle: JobWorker<ScreenshotJobPayload, ScreenshotJobResult, ScreenshotJobName> | undefined;

  beforeAll(async () => {
    await events.waitUntilReady();
    busy = worker('busy', busyConnection, { prefetch: 1, handBackMs: 200 });
    busy.worker.on('active', (job) => busyPickups.push(String(job.id)));
  });

  afterAll(async () => {
    holds.releaseAll();
    await busy.worker.close();
    await busy.close();
    await idle?.worker.close();
    await idle?.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
    for (const connection of connections) connection.disconnect();
  });

  const add = (id: string, path: string) =>
    queue.add(
      'screenshot',
      { request: { url: `https://example.com${path}` } as never, timeoutSeconds: 10, acceptedAt: Date.now() },
      { jobId: id },
    );

  it('is taken by an idle worker, not again by the busy one, which takes jobs ahead again once a slot frees', async () => {
    const holding = await add('slow', '/hold');
    await holds.held('slow');
    const handedBack = new Promise<void>((resolve) =>
      events.on('waiting', ({ jobId, prev }) => jobId === 'ahead' && prev === 'active' && resolve()),
    );
    const ahead = await add('ahead', '/');
    await handedBack;
    // An idle worker starts now and takes it; the busy one's slot is still held.
    idle = worker('idle', idleConnection, {});
    expect(await ahead.waitUntilFinished(events, 30_000)).toMatchObject({ key: 'k-ahead' });
    expect(ranOn).toContainEqual(['ahead', 'idle']);
    expect(busyPickups.filter((id) => id === 'ahead')).toEqual(['ahead']);
    expect(await holding.getState()).toBe('active');
    // Once its slot frees, the busy worker holds a job ahead again.
    await idle.worker.close();
    holds.release('slow');
    await holding.waitUntilFinished(events, 30_000);
    const second = await add('slow-2', '/hold');
    await holds.held('slow-2');
    const pickedAhead = new Promise<void>((resolve) => busy.worker.on('active', (job) => job.id === 'ahead-2' && resolve()));
    await add('ahead-2', '/');
    await pickedAhead;
    holds.release('slow-2');
    await second.waitUntilFinished(events, 30_000);
  });
});
