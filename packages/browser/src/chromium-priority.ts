import { readdir } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { descendants, parents, readText } from './renderer-watchdog';

/**
 * Chromium gives the threads every page waits on (the browser's UI and IO threads, the GPU
 * process's compositor) nice -8, above the renderers running the pages' own scripts and layout.
 * Only a process allowed to raise its priority (CAP_SYS_NICE) can: run as root it does, but run as
 * its own unprivileged user (`CHROMIUM_USER`, or any non-root container) every thread stays at 0,
 * and two pages at once then make about 40% fewer screenshots per second on two cores, the
 * browser's single UI thread losing the CPU to renderers.
 *
 * This puts the same order back from outside, once per launch: as root the browser and GPU
 * processes' threads go to -8 (what Chromium itself asks for); otherwise the zygotes every
 * renderer is forked from go to +8, so renderers run below the browser and inherit that (a page
 * cannot lower it again). Where /proc or the permission is missing nothing changes.
 */
export const RAISED_NICE = -8;
export const LOWERED_NICE = 8;

export type ChromiumRole = 'browser' | 'gpu' | 'zygote' | 'other';

/**
 * A process's role, from its command line. A sandboxed child rewrites its own (`--type=` is gone),
 * so besides the `--type` flag the marks each kind keeps are used: the GPU process its
 * `--gpu-preferences`, utility processes and renderers their `--field-trial-handle`; a direct child
 * of the browser with neither is a zygote.
 */
export function roleOf(cmdline: string, isBrowser: boolean, parentIsBrowser: boolean): ChromiumRole {
  if (isBrowser) return 'browser';
  if (cmdline.includes('--type=gpu-process') || cmdline.includes('--gpu-preferences=')) return 'gpu';
  if (cmdline.includes('--type=zygote')) return 'zygote';
  if (parentIsBrowser && !cmdline.includes('--type=') && !cmdline.includes('--field-trial-handle=')) return 'zygote';
  return 'other';
}

/**
 * Sets the nice value of every thread of `pid` (Linux keeps one per thread). A thread the process
 * starts meanwhile takes its creator's value, which may still be the old one: passes repeat until
 * one finds every thread at `nice` (at most a few). Returns how many threads were changed.
 */
async function reniceThreads(pid: number, nice: number): Promise<number> {
  let changed = 0;
  for (let pass = 0; pass < 5; pass++) {
    const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    let changedNow = 0;
    for (const tid of threads) {
      try {
        if (getPriority(Number(tid)) === nice) continue;
        setPriority(Number(tid), nice);
        changedNow += 1;
      } catch {
        // not allowed, or the thread ended
      }
    }
    changed += changedNow;
    if (changedNow === 0) break;
  }
  return changed;
}

/**
 * Orders a freshly launched Chromium's processes as Chromium would with the privilege to (see
 * above). `privileged`: whether this process may raise priorities (default: it runs as root).
 * Returns how many threads it changed, by role.
 */
export async function prioritiseChromium(
  browserPid: number,
  privileged = typeof process.getuid === 'function' && process.getuid() === 0,
): Promise<Record<'raised' | 'lowered', number>> {
  const counts = { raised: 0, lowered: 0 };
  // The browser's pid may be a launcher that exec'd Chromium: its children are Chromium's.
  const parentOf = await parents();
  for (const pid of [browserPid, ...descendants(browserPid, parentOf)]) {
    const cmdline = (await readText(`/proc/${pid}/cmdline`))?.replaceAll('\0', ' ');
    if (cmdline === undefined) continue;
    const role = roleOf(cmdline, pid === browserPid, parentOf.get(pid) === browserPid);
    if (privileged && (role === 'browser' || role === 'gpu')) counts.raised += await reniceThreads(pid, RAISED_NICE);
    if (!privileged && role === 'zygote') counts.lowered += await reniceThreads(pid, LOWERED_NICE);
  }
  return counts;
}
