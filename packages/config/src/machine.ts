import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

/** What the process may use: CPUs and memory, container limits (cgroup v2) included. */
export interface MachineShape {
  cpus: number;
  memoryBytes: number;
}

function readCgroup(file: string): string | undefined {
  try {
    return readFileSync(`/sys/fs/cgroup/${file}`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The machine as this process sees it: the CPUs it may run on, lowered to its container's CPU quota
 * (`cpu.max`, rounded up), and the memory, lowered to the container's limit (`memory.max`).
 */
export function machineShape(): MachineShape {
  let cpus = availableParallelism();
  const [quota, period] = (readCgroup('cpu.max') ?? 'max').split(/\s+/);
  if (quota !== undefined && quota !== 'max' && Number(period) > 0)
    cpus = Math.min(cpus, Math.max(1, Math.ceil(Number(quota) / Number(period))));
  let memoryBytes = totalmem();
  const limit = readCgroup('memory.max');
  if (limit !== undefined && /^\d+$/.test(limit)) memoryBytes = Math.min(memoryBytes, Number(limit));
  return { cpus, memoryBytes };
}

/** Memory Chromium itself takes before any page, and what one page at once needs beside it. */
export const BROWSER_BASE_MIB = 512;
export const PAGE_MIB = 512;
export const MAX_DEFAULT_SCREENSHOT_CONCURRENCY = 16;

/** Pages in flight per CPU by default. */
export const PAGES_PER_CPU = 3;

/**
 * SCREENSHOT_CONCURRENCY when it is not set: three pages per CPU, as many as memory holds beside the
 * browser, at least 1 and at most 16. A page spends part of its time where its CPU is idle (the
 * browser's one UI thread, DevTools round trips, the queue, the store), and more pages in flight
 * fill it. Measured on two cores (stop 22, interleaved rounds of 60 shots, the service against a
 * bare puppeteer loop at 4, 6 and 8 in flight): 6 pages drained 1.01x and 1.00x of the bare loop's
 * best (light, heavy page), 4 pages 1.00x and 0.945x; the machine sat idle 8.8% of the time at 6
 * against 9.9% at 4 (heavy). The bare loop itself drains most at 8 in flight and less at 12 or 16.
 */
export function defaultScreenshotConcurrency(machine: MachineShape): number {
  const byMemory = Math.floor((machine.memoryBytes / 2 ** 20 - BROWSER_BASE_MIB) / PAGE_MIB);
  return Math.max(1, Math.min(machine.cpus * PAGES_PER_CPU, byMemory, MAX_DEFAULT_SCREENSHOT_CONCURRENCY));
}
