import { timeLimit } from '../src';

describe('timeLimit', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("passes the promise's value or rejection through and leaves no timer behind", async () => {
    await expect(timeLimit(Promise.resolve(7), 1_000, () => new Error('late'))).resolves.toBe(7);
    await expect(timeLimit(Promise.reject(new Error('own')), 1_000, () => new Error('late'))).rejects.toThrow('own');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects with the expiry error once the time is up, not before', async () => {
    const expired = jest.fn(() => new Error('late'));
    const limited = timeLimit(new Promise<never>(() => undefined), 1_000, expired);
    const outcome = limited.catch((error: unknown) => error);
    jest.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(await outcome).toEqual(new Error('late'));
    expect(expired).toHaveBeenCalledTimes(1);
  });
});
