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
export const PAGES_PER_CPU = 2;

/**
 * SCREENSHOT_CONCURRENCY when it is not set: two pages per CPU, as many as memory holds beside the
 * browser, at least 1 and at most 16. Measured on two cores (bench/screenshot, light and heavy
 * pages, three interleaved rounds each): 4 pages at once drained 7.40 and 6.05 shots/s, 3 pages
 * 7.28 and 5.79, 2 pages 7.12 and 5.82. A job spends part of its time where its CPU is idle (the
 * browser's UI thread, the queue, the store), and a second page per core fills it; the bare
 * puppeteer loop is fastest at 4 in flight too.
 */
export function defaultScreenshotConcurrency(machine: MachineShape): number {
  const byMemory = Math.floor((machine.memoryBytes / 2 ** 20 - BROWSER_BASE_MIB) / PAGE_MIB);
  return Math.max(1, Math.min(machine.cpus * PAGES_PER_CPU, byMemory, MAX_DEFAULT_SCREENSHOT_CONCURRENCY));
}
