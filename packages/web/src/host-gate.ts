/**
 * Politeness per host: at most N requests in flight, and when robots.txt sets a crawl-delay, one
 * at a time with starts spaced by that delay.
 */
import { systemClock, type Clock } from '@sitelens/contracts';

interface HostState {
  active: number;
  nextStart: number;
  waiters: Array<() => void>;
}

export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Waits for a slot on `host`; call the returned function when the request is done. */
  async acquire(host: string, delayMs: number, signal?: AbortSignal): Promise<() => void> {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, nextStart: 0, waiters: [] };
      this.hosts.set(host, state);
    }
    const limit = delayMs > 0 ? 1 : this.perHost;
    while (state.active >= limit) {
      await new Promise<void>((resolve) => state!.waiters.push(resolve));
      if (signal?.aborted) throw signal.reason;
    }
    state.active += 1;
    const now = this.clock.now();
    const wait = Math.max(0, state.nextStart - now);
    state.nextStart = Math.max(now, state.nextStart) + delayMs;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      state!.active -= 1;
      state!.waiters.shift()?.();
    };
    if (wait > 0) {
      try {
        await this.clock.sleep(wait, signal);
      } catch (error) {
        release();
        throw error;
      }
    }
    return release;
  }
}
