/**
 * Process-tree helpers from /proc (Linux): which processes a service started (its Chromium), and
 * whether they are gone, so fault tests can kill exactly those and leave nothing behind.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The executable's name as the kernel reports it (at most 15 characters). */
  comm: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may itself hold spaces and parentheses.
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const rest = stat.slice(close + 2).split(' ');
    if (rest[0] === 'Z') return undefined; // a zombie is already dead
    return { pid, ppid: Number(rest[1]), comm: stat.slice(open + 1, close) };
  } catch {
    return undefined;
  }
}

/** Every live process below `pid` (children, grandchildren...). */
export function descendants(pid: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((info): info is ProcInfo => info !== undefined);
  const found: ProcInfo[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  return readProc(pid) !== undefined;
}

/** SIGKILLs whichever of `pids` still run (cleanup after a test). */
export function killLeftovers(pids: readonly number[]): number[] {
  const alive = pids.filter(isAlive);
  for (const pid of alive) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone in between
    }
  }
  return alive;
}

/** Polls until `pids` are all gone or `timeoutMs` passes; returns those still alive. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
