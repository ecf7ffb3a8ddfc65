import { SlotQueue } from '../src';

describe('SlotQueue', () => {
  it('hands out its slots at once, then makes the rest wait in arrival order', async () => {
    const slots = new SlotQueue(2);
    await slots.acquire();
    await slots.acquire();
    const granted: string[] = [];
    const first = slots.acquire().then(() => granted.push('first'));
    const second = slots.acquire().then(() => granted.push('second'));
    expect([slots.inUse, slots.waiting]).toEqual([2, 2]);
    slots.release();
    await first;
    expect(granted).toEqual(['first']);
    // A freed slot goes to the oldest waiter, so the count in use stays.
    expect([slots.inUse, slots.waiting]).toEqual([2, 1]);
    slots.release();
    await second;
    expect(granted).toEqual(['first', 'second']);
    slots.release();
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('tryAcquire takes a free slot at once, and none while every slot is taken', async () => {
    const slots = new SlotQueue(1);
    expect(slots.tryAcquire()).toBe(true);
    expect(slots.tryAcquire()).toBe(false);
    const waiter = slots.acquire();
    slots.release(); // passes to the waiter
    await waiter;
    expect(slots.tryAcquire()).toBe(false);
    const next = slots.acquire();
    slots.release();
    await next;
    slots.release();
    expect([slots.inUse, slots.waiting]).toEqual([0, 0]);
    expect(slots.tryAcquire()).toBe(true);
    expect(slots.inUse).toBe(1);
  });

  it('never lets a newcomer pass a waiter', async () => {
    const slots = new SlotQueue(1);
    await slots.acquire();
    const order: string[] = [];
    const waiter = slots.acquire().then(() => order.push('waiter'));
    slots.release();
    const newcomer = slots.acquire().then(() => order.push('newcomer'));
    await waiter;
    slots.release();
    await newcomer;
    expect(order).toEqual(['waiter', 'newcomer']);
  });

  it('drops a waiter whose signal aborts, with the signal’s reason, and serves the next', async () => {
    const slots = new SlotQueue(1);
    await slots.acquire();
    const controller = new AbortController();
    const gaveUp = slots.acquire(controller.signal);
    const next = slots.acquire();
    controller.abort(new Error('deadline'));
    await expect(gaveUp).rejects.toThrow('deadline');
    expect(slots.waiting).toBe(1);
    slots.release();
    await next;
    expect(slots.inUse).toBe(1);
    await expect(slots.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('rejects every waiter on rejectAll', async () => {
    const slots = new SlotQueue(1);
    await slots.acquire();
    const waiters = [slots.acquire(), slots.acquire()];
    slots.rejectAll(new Error('shut down'));
    for (const waiter of waiters) await expect(waiter).rejects.toThrow('shut down');
    expect(slots.waiting).toBe(0);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new SlotQueue(0)).toThrow(RangeError);
    expect(() => new SlotQueue(1.5)).toThrow(RangeError);
  });
});
