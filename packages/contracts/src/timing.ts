/** Small promise helpers for work that must stop on time. */

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Time as code that schedules work sees it: the wall clock by default; tests pass a virtual one so
 * they assert what was scheduled, not how fast a loaded machine ran it.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep };

/** `promise`'s value, or undefined once `ms` have passed (clean-up that must not hang). */
export function bounded<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** `promise`'s outcome, or a rejection with `expired()` once `ms` have passed; the timer never outlives it. */
export function timeLimit<T>(promise: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Rejects with the signal's reason when it aborts; never resolves. For `Promise.race`. */
export function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Where one job's time went, phase by phase, for the metrics operators and benchmarks read:
 * `mark(phase)` books the time since the previous mark (or the start) to `phase`.
 */
export interface PhaseTimer {
  mark(phase: string): void;
}

export function startPhaseTimer(record: (phase: string, ms: number) => void, now: () => number = () => performance.now()): PhaseTimer {
  let last = now();
  return {
    mark(phase) {
      const at = now();
      record(phase, at - last);
      last = at;
    },
  };
}
