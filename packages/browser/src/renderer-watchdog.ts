import { open, readFile, readdir } from 'node:fs/promises';

/**
 * Keeps each of one Chromium's renderer processes under a resident-memory cap. V8's heap cap
 * (--max-old-space-size) stops a script's objects, but not its ArrayBuffers, canvases or DOM: a
 * renderer past the cap is killed, its page fails with PAGE_CRASHED, and the browser and every
 * other page go on. Reads /proc; where there is none (not Linux) it does nothing.
 */
export interface RendererWatchdog {
  stop(): void;
}

export interface RendererWatchdogOptions {
  browserPid: number;
  limitBytes: number;
  intervalMs?: number;
  onKill: (info: { pid: number; rssBytes: number }) => void;
}

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The start of a /proc file, up to `maxBytes`. /proc files report no size, so readFile reads them
 * through a fresh 64 KiB buffer each: at a scan of every process twice a second that was ~20 MB/s
 * of buffers and a major GC every few screenshots. Reading the few bytes needed does not.
 */
export async function readProcText(file: string, maxBytes: number): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.allocUnsafe(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A process's parent, from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
async function readParent(pid: string): Promise<number | undefined> {
  // A stat line is a few hundred bytes (the command name is at most 16).
  const stat = await readProcText(`/proc/${pid}/stat`, 1024);
  if (!stat) return undefined;
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * Parent of each process now. With `known` (the previous scan's answer), only processes that are
 * new since then are read: a process keeps its parent, and a pid cannot come back as another
 * process between two scans half a second apart (the kernel hands pids out in order up to
 * pid_max before reusing one). A scan of every process on the machine twice a second was most of
 * an idle worker's CPU.
 */
export async function parents(known?: ReadonlyMap<number, number>): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const pid = Number(entry);
        const parent = known?.get(pid) ?? (await readParent(entry));
        if (parent !== undefined) map.set(pid, parent);
      }),
  );
  return map;
}

export function descendants(root: number, parentOf: Map<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentOf) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** Whether each process seen is a renderer: a process keeps its kind, so its command line is read once. */
export type RendererKinds = Map<number, boolean>;

async function isRenderer(pid: number, kinds: RendererKinds): Promise<boolean> {
  const known = kinds.get(pid);
  if (known !== undefined) return known;
  // The process type is among the first arguments; the rest of Chromium's command line is long.
  const cmdline = await readProcText(`/proc/${pid}/cmdline`, 4096);
  const renderer = cmdline?.includes('--type=renderer') ?? false;
  // A renderer starts as a fork of a zygote and shows the zygote's command line (which may carry
  // no --type at all) until it renames itself: only a process that names another type is settled.
  if (cmdline?.includes('--type=') && !cmdline.includes('--type=zygote')) kinds.set(pid, renderer);
  return renderer;
}

async function rendererRss(pid: number, kinds: RendererKinds): Promise<number | undefined> {
  if (!(await isRenderer(pid, kinds))) return undefined;
  // VmRSS is in the first kilobyte or so of the status file.
  const status = await readProcText(`/proc/${pid}/status`, 4096);
  const kb = status ? /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] : undefined;
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/** Every process under `pid` now (Chromium's zygotes, renderers, GPU and utility processes). */
export async function processTree(pid: number): Promise<number[]> {
  return descendants(pid, await parents());
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits up to `waitMs` for `pids` to exit, then SIGKILLs what is left: a browser's helpers (its
 * sandboxed zygotes above all) notice its death a moment later, and none may outlive the pool.
 */
export async function reapProcesses(pids: readonly number[], waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = left.filter(alive);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * What passes remember: each process's kind (a process keeps it, so its command line is read
 * once) and each process's parent. `scans` counts passes, and every FULL_SCAN_EVERY-th pass reads
 * every parent again, so nothing remembered lives longer than that.
 */
export interface WatchMemory {
  kinds: RendererKinds;
  parents?: Map<number, number>;
  scans?: number;
}

const FULL_SCAN_EVERY = 20;

/** One pass: kills every renderer of the browser above the cap. Exposed for tests. */
export async function enforceRendererLimit(
  options: Omit<RendererWatchdogOptions, 'intervalMs'>,
  memory: WatchMemory = { kinds: new Map() },
): Promise<void> {
  const scans = memory.scans ?? 0;
  memory.scans = scans + 1;
  memory.parents = await parents(scans % FULL_SCAN_EVERY === 0 ? undefined : memory.parents);
  const pids = descendants(options.browserPid, memory.parents);
  const { kinds } = memory;
  // Forget processes that are gone (their pids may come back as something else).
  const current = new Set(pids);
  for (const pid of kinds.keys()) if (!current.has(pid)) kinds.delete(pid);
  await Promise.all(
    pids.map(async (pid) => {
      const rss = await rendererRss(pid, kinds);
      if (rss === undefined || rss <= options.limitBytes) return;
      try {
        process.kill(pid, 'SIGKILL');
        options.onKill({ pid, rssBytes: rss });
      } catch {
        // it exited meanwhile
      }
    }),
  );
}

export function watchRenderers(options: RendererWatchdogOptions): RendererWatchdog {
  let running = false;
  const memory: WatchMemory = { kinds: new Map() };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void enforceRendererLimit(options, memory).finally(() => {
      running = false;
    });
  }, options.intervalMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
