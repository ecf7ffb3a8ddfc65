/**
 * followJob, the one way to follow a job to its end, on a stand-in event stream and queue: the end
 * comes from one consistent read, progress is relayed in order, a missed event cannot hang it, and
 * a shutdown signal ends the wait at once (the job's state is still read).
 */
import { EventEmitter } from 'node:events';
import type { Queue, QueueEvents } from 'bullmq';
import { followJob } from '../src';

interface FakeJob {
  state: string;
  returnvalue?: unknown;
  failedReason?: string;
  finishedOn?: number;
}

function fakeSource(job: FakeJob | undefined) {
  const events = new EventEmitter();
  const reads = { count: 0, states: 0 };
  const queue = {
    getJob: async () => {
      reads.count += 1;
      const getState = async () => {
        reads.states += 1;
        return job?.state;
      };
      return job ? { ...job, getState } : undefined;
    },
  };
  return { events: events as unknown as QueueEvents, emitter: events, queue: queue as unknown as Pick<Queue, 'getJob'>, reads };
}

describe('followJob', () => {
  it('ends on the completed event with the result read back, relaying progress in order', async () => {
    const job: FakeJob = { state: 'active' };
    const source = fakeSource(job);
    const progress: unknown[] = [];
    const follower = followJob<string, number>(source, 'j1', { waitMs: 30_000, onProgress: (p) => progress.push(p) });
    source.emitter.emit('progress:j1', { jobId: 'j1', data: 1 });
    source.emitter.emit('progress:j1', { jobId: 'j1', data: 2 });
    Object.assign(job, { state: 'completed', returnvalue: 'done', finishedOn: 1 });
    source.emitter.emit('completed:j1', { jobId: 'j1', returnvalue: 'done' });
    const end = await follower.done;
    expect(end).toMatchObject({ state: 'completed', result: 'done' });
    expect(progress).toEqual([1, 2]);
    expect(source.emitter.eventNames()).toEqual([]);
  });

  it('reports a failure with its reason, and a job already ended when following began at once', async () => {
    const source = fakeSource({ state: 'failed', failedReason: 'TIMEOUT: slow', finishedOn: 1 });
    expect(await followJob(source, 'j2', { waitMs: 30_000 }).done).toMatchObject({ state: 'failed', failedReason: 'TIMEOUT: slow' });
  });

  it('does not hang on a missed event: an end seen by two reads in a row is trusted', async () => {
    const job: FakeJob = { state: 'active' };
    const source = fakeSource(job);
    const follower = followJob<string>(source, 'j3', { waitMs: 30_000, checkEveryMs: 10 });
    Object.assign(job, { state: 'completed', returnvalue: 'quiet', finishedOn: 1 });
    expect(await follower.done).toMatchObject({ state: 'completed', result: 'quiet' });
  });

  it('stops waiting as soon as the signal aborts, and reads the job then', async () => {
    const source = fakeSource({ state: 'waiting' });
    const stopping = new AbortController();
    const follower = followJob(source, 'j4', { waitMs: 30_000, signal: stopping.signal });
    stopping.abort();
    const end = await follower.done;
    expect(end).toMatchObject({ state: 'unfinished', why: 'stopped' });
    expect(end.state === 'unfinished' && end.snapshot?.state).toBe('waiting');
  });

  it('does not wait at all once the signal has aborted, and waits out the time without one', async () => {
    const stopping = new AbortController();
    stopping.abort();
    expect(await followJob(fakeSource({ state: 'active' }), 'j5', { waitMs: 30_000, signal: stopping.signal }).done).toMatchObject({
      why: 'stopped',
    });
    expect(await followJob(fakeSource({ state: 'active' }), 'j6', { waitMs: 50 }).done).toMatchObject({
      state: 'unfinished',
      why: 'timeout',
    });
  });

  it('reports a removed job, and a stop without reading', async () => {
    const gone = fakeSource(undefined);
    const removed = followJob(gone, 'j7', { waitMs: 30_000 });
    gone.emitter.emit('removed:j7', { jobId: 'j7' });
    expect(await removed.done).toEqual({ state: 'unfinished', why: 'removed' });
    const stopped = followJob(fakeSource({ state: 'active' }), 'j8', { waitMs: 30_000 });
    stopped.stop();
    expect(await stopped.done).toEqual({ state: 'unfinished', why: 'stopped' });
  });

  it('leaves the first read to a caller that reads the job itself, and after the completed event reads only the job', async () => {
    const job: FakeJob = { state: 'active' };
    const source = fakeSource(job);
    const follower = followJob<string>(source, 'j9', { waitMs: 30_000, firstRead: false });
    // A settled microtask queue: a first read, had one been started, would have counted by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(source.reads.count).toBe(0);
    Object.assign(job, { state: 'completed', returnvalue: 'late', finishedOn: 1 });
    source.emitter.emit('completed:j9', { jobId: 'j9', returnvalue: 'late' });
    expect(await follower.done).toMatchObject({ state: 'completed', result: 'late' });
    // After the completed event only the job's record is read: completion is final.
    expect(source.reads).toEqual({ count: 1, states: 0 });
    // The default reads at once: a job that had ended before following began ends it.
    const ended = fakeSource({ state: 'completed', returnvalue: 'early', finishedOn: 1 });
    expect(await followJob<string>(ended, 'j10', { waitMs: 30_000 }).done).toMatchObject({ state: 'completed', result: 'early' });
    expect(ended.reads).toEqual({ count: 2, states: 2 });
  });
});
