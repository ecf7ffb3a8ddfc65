import { defaultScreenshotConcurrency, loadConfig, machineShape } from '../src';

const GiB = 2 ** 30;

describe('default SCREENSHOT_CONCURRENCY', () => {
  it('is three pages per CPU, as many as memory holds beside the browser, between 1 and 16', () => {
    expect(defaultScreenshotConcurrency({ cpus: 2, memoryBytes: 24 * GiB })).toBe(6);
    expect(defaultScreenshotConcurrency({ cpus: 4, memoryBytes: 32 * GiB })).toBe(12);
    expect(defaultScreenshotConcurrency({ cpus: 6, memoryBytes: 32 * GiB })).toBe(16);
    // 2 GiB: 512 MiB for the browser leaves three pages' worth.
    expect(defaultScreenshotConcurrency({ cpus: 8, memoryBytes: 2 * GiB })).toBe(3);
    expect(defaultScreenshotConcurrency({ cpus: 4, memoryBytes: 0.75 * GiB })).toBe(1);
    expect(defaultScreenshotConcurrency({ cpus: 1, memoryBytes: 64 * GiB })).toBe(3);
    expect(defaultScreenshotConcurrency({ cpus: 96, memoryBytes: 256 * GiB })).toBe(16);
  });

  it('applies when the variable is unset or empty; a set value wins', () => {
    const machine = () => ({ cpus: 4, memoryBytes: 16 * GiB });
    expect(loadConfig({}, machine).browser.concurrency).toBe(12);
    expect(loadConfig({ SCREENSHOT_CONCURRENCY: '' }, machine).browser.concurrency).toBe(12);
    expect(loadConfig({ SCREENSHOT_CONCURRENCY: '3' }, machine).browser.concurrency).toBe(3);
    expect(() => loadConfig({ SCREENSHOT_CONCURRENCY: '0' }, machine)).toThrow('SCREENSHOT_CONCURRENCY: must be at least 1');
  });

  it('reads this machine: at least one CPU and some memory', () => {
    const shape = machineShape();
    expect(shape.cpus).toBeGreaterThanOrEqual(1);
    expect(shape.memoryBytes).toBeGreaterThan(0);
  });
});
