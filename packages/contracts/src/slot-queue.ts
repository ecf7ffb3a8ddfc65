/**
 * A counting semaphore with a strict first-in, first-out wait: a slot freed while jobs wait goes
 * to the oldest waiter, never to a newcomer, so a busy pool cannot starve an early job.
 */
export class SlotQueue {
  private used = 0;
  private readonly waiters: Array<{ grant: () => void; fail: (error: unknown) => void }> = [];

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slot count must be a positive integer, got ${size}`);
  }

  get inUse(): number {
    return this.used;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Takes a slot if one is free and nobody waits for one; false otherwise (nothing taken). */
  tryAcquire(): boolean {
    if (this.used >= this.size || this.waiters.length > 0) return false;
    this.used += 1;
    return true;
  }

  /** Resolves when a slot is ours; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.tryAcquire()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter, so `used` stays the same.
    if (next) next.grant();
    else this.used = Math.max(0, this.used - 1);
  }

  /** Rejects every waiter (shutdown). */
  rejectAll(error: unknown): void {
    for (const waiter of this.waiters.splice(0)) waiter.fail(error);
  }
}
