import { readFile, readdir } from 'node:fs/promises';

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

/** Parent of each process, from /proc/<pid>/stat (the command name may hold spaces and parentheses). */
export async function parents(): Promise<Map<number, number>> {
  const map = new Map<number, number>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const stat = await readText(`/proc/${entry}/stat`);
        if (!stat) return;
        const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        map.set(Number(entry), Number(after[1]));
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

async function rendererRss(pid: number): Promise<number | undefined> {
  const cmdline = await readText(`/proc/${pid}/cmdline`);
  if (!cmdline?.includes('--type=renderer')) return undefined;
  const status = await readText(`/proc/${pid}/status`);
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

/** One pass: kills every renderer of the browser above the cap. Exposed for tests. */
export async function enforceRendererLimit(options: Omit<RendererWatchdogOptions, 'intervalMs'>): Promise<void> {
  const pids = descendants(options.browserPid, await parents());
  await Promise.all(
    pids.map(async (pid) => {
      const rss = await rendererRss(pid);
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
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void enforceRendererLimit(options).finally(() => {
      running = false;
    });
  }, options.intervalMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
