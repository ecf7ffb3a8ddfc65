import type { Job, Queue, QueueEvents, QueueEventsListener } from 'bullmq';
import { readJob, type JobSnapshot } from '../job-view';

/** How a followed job ended, or why following it stopped first. */
export type JobEnd<R> =
  | { state: 'completed'; job: Job; result: R }
  | { state: 'failed'; job: Job; failedReason: string }
  | {
      state: 'unfinished';
      /** `timeout`: the wait passed; `stopped`: the signal aborted or `stop()` was called; `removed`: the job is gone. */
      why: 'timeout' | 'stopped' | 'removed';
      snapshot?: JobSnapshot;
    };

export interface FollowOptions<P> {
  /** How long to wait for the end, in ms from now. */
  waitMs: number;
  /** Stops following when it aborts (a gateway shutting down); the job's state is still read. */
  signal?: AbortSignal;
  /** Each progress report, in the order the worker wrote them. */
  onProgress?(data: P): void;
  /** Wraps every Redis read (the gateway's fail-fast guard); errors of the final read reject `done`. */
  read?<T>(work: () => Promise<T>): Promise<T>;
  /** How often the job's state is read besides the events (a missed event must not hang anyone). */
  checkEveryMs?: number;
  /**
   * False when the caller reads the job itself right after this call and stops the follower if it
   * had already ended: events are heard from this call on, so that read sees any end they could
   * miss, and the follower's own first read would only repeat it. Default true.
   */
  firstRead?: boolean;
}

export interface JobFollower<R> {
  /** Settles when the job ends, the wait passes, or following stops. */
  done: Promise<JobEnd<R>>;
  /** Stops following now; `done` settles unfinished/stopped without another read. */
  stop(): void;
}

/** BullMQ also emits every job event under `<event>:<jobId>`. */
interface JobScopedEvents extends QueueEventsListener {
  [event: `progress:${string}`]: (args: { jobId: string; data: unknown }, id: string) => void;
  [event: `completed:${string}`]: (args: { jobId: string; returnvalue: unknown }, id: string) => void;
  [event: `failed:${string}`]: (args: { jobId: string; failedReason: string }, id: string) => void;
  [event: `removed:${string}`]: (args: { jobId: string }, id: string) => void;
}

const CHECK_EVERY_MS = 3_000;

/**
 * The job after its completed event. Completion is final, so the job's own record is the whole
 * answer and its state need not be asked (one Redis round trip fewer per followed job); a record
 * without its end written (it cannot be, after the event) falls back to the full read.
 */
async function readCompleted(queue: Pick<Queue, 'getJob'>, jobId: string): Promise<JobSnapshot | undefined> {
  const job = await queue.getJob(jobId);
  if (job && job.finishedOn !== undefined) return { job, state: 'completed' };
  return readJob(queue, jobId);
}

function ended(snapshot: JobSnapshot | undefined): boolean {
  return snapshot?.state === 'completed' || snapshot?.state === 'failed';
}

/**
 * The one way to follow a job to its end: its events as they come (progress, end, removal), a read
 * of its state now and then in case an event is missed, and at the end one consistent read
 * (`readJob`) that the outcome is taken from. A periodic read trusts an end only when it sees it
 * twice in a row, so trailing progress events arrive first. Start following before the job is
 * added when its first events matter: nothing is missed then.
 */
export function followJob<R, P = unknown>(
  source: { events: QueueEvents; queue: Pick<Queue, 'getJob'> },
  jobId: string,
  options: FollowOptions<P>,
): JobFollower<R> {
  const { events, queue } = source;
  const read = options.read ?? (<T>(work: () => Promise<T>) => work());
  let settle: (end: Promise<JobEnd<R>>) => void = () => undefined;
  const done = new Promise<JobEnd<R>>((resolve) => {
    settle = resolve;
  });
  let finished = false;
  let endsSeen = 0;
  let checking = false;

  const onProgress = ({ data }: { data: unknown }) => {
    if (!finished) options.onProgress?.(data as P);
  };
  const onCompleted = () => finish('completed');
  const onEnd = () => finish('event');
  const onRemoved = () => finish('removed');
  const onAbort = () => finish('aborted');
  events.on<JobScopedEvents>(`progress:${jobId}`, onProgress);
  events.on<JobScopedEvents>(`completed:${jobId}`, onCompleted);
  events.on<JobScopedEvents>(`failed:${jobId}`, onEnd);
  events.on<JobScopedEvents>(`removed:${jobId}`, onRemoved);
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const check = async (first: boolean) => {
    if (checking || finished) return;
    checking = true;
    try {
      const snapshot = await read(() => readJob(queue, jobId));
      if (finished) return;
      endsSeen = ended(snapshot) ? endsSeen + 1 : 0;
      // A job that had already ended when following began has no events left to wait for.
      if (endsSeen >= (first ? 1 : 2)) finish('event');
    } catch {
      // The next check or the deadline decides.
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(false), options.checkEveryMs ?? CHECK_EVERY_MS);
  const deadline = setTimeout(() => finish('timeout'), Math.max(0, options.waitMs));
  if (options.signal?.aborted || options.waitMs <= 0) finish(options.signal?.aborted ? 'aborted' : 'timeout');
  else if (options.firstRead !== false) void check(true);

  async function outcome(why: 'completed' | 'event' | 'timeout' | 'removed' | 'aborted'): Promise<JobEnd<R>> {
    const snapshot = await read(() => (why === 'completed' ? readCompleted(queue, jobId) : readJob(queue, jobId)));
    if (snapshot?.state === 'completed') return { state: 'completed', job: snapshot.job, result: snapshot.job.returnvalue as R };
    if (snapshot?.state === 'failed') return { state: 'failed', job: snapshot.job, failedReason: snapshot.job.failedReason };
    if (!snapshot) return { state: 'unfinished', why: why === 'aborted' ? 'stopped' : 'removed' };
    return { state: 'unfinished', why: why === 'aborted' ? 'stopped' : why === 'event' || why === 'completed' ? 'timeout' : why, snapshot };
  }

  function finish(why: 'completed' | 'event' | 'timeout' | 'removed' | 'aborted' | 'stopped'): void {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    clearTimeout(deadline);
    events.off<JobScopedEvents>(`progress:${jobId}`, onProgress);
    events.off<JobScopedEvents>(`completed:${jobId}`, onCompleted);
    events.off<JobScopedEvents>(`failed:${jobId}`, onEnd);
    events.off<JobScopedEvents>(`removed:${jobId}`, onRemoved);
    options.signal?.removeEventListener('abort', onAbort);
    settle(why === 'stopped' ? Promise.resolve({ state: 'unfinished', why: 'stopped' }) : outcome(why));
  }

  return { done, stop: () => finish('stopped') };
}
