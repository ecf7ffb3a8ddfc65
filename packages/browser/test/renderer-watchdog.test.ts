/**
 * The renderer watchdog's pass on plain child processes named like Chromium's: a "renderer" past
 * the cap is killed, a "zygote" or an untyped process (what a renderer shows for a moment after
 * its fork) is looked at again on the next pass, and /proc is read a few bytes at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { enforceRendererLimit, parents, readProcText, type WatchMemory } from '../src/renderer-watchdog';

function child(type: string): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `--type=${type}`], { stdio: 'ignore' });
}

const started = async (proc: ChildProcess) => {
  // Its command line is its own once it has exec'd: wait until /proc says so.
  for (;;) {
    const cmdline = await readProcText(`/proc/${proc.pid}/cmdline`, 4096);
    if (cmdline?.includes('--type=')) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describe('renderer watchdog', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((proc) => proc.kill('SIGKILL')));

  it('reads at most the bytes asked for, and nothing from a file that is not there', async () => {
    const status = await readProcText('/proc/self/status', 64);
    expect(status).toMatch(/^Name:/);
    expect(Buffer.byteLength(status!)).toBeLessThanOrEqual(64);
    expect(await readProcText('/proc/0/not-there', 64)).toBeUndefined();
  });

  it('kills a renderer above the cap, remembers kinds, and looks at a zygote again', async () => {
    const renderer = child('renderer');
    const zygote = child('zygote');
    const gpu = child('gpu-process');
    const untyped = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(renderer, zygote, gpu, untyped);
    await Promise.all([renderer, zygote, gpu].map(started));

    const memory: WatchMemory = { kinds: new Map() };
    const { kinds } = memory;
    const killed: number[] = [];
    const exited = once(renderer, 'exit');
    await enforceRendererLimit({ browserPid: process.pid, limitBytes: 1, onKill: ({ pid }) => killed.push(pid) }, memory);
    expect(killed).toEqual([renderer.pid]);
    expect((await exited)[1]).toBe('SIGKILL');
    expect(kinds.get(gpu.pid!)).toBe(false);
    expect(kinds.has(zygote.pid!)).toBe(false);
    // A process that names no type may be a fork that has not renamed itself yet: read again later.
    expect(kinds.has(untyped.pid!)).toBe(false);
    expect(zygote.exitCode).toBeNull();

    // The next pass forgets the renderer that is gone.
    await enforceRendererLimit({ browserPid: process.pid, limitBytes: 1, onKill: ({ pid }) => killed.push(pid) }, memory);
    expect(kinds.has(renderer.pid!)).toBe(false);
    expect(memory.parents?.has(renderer.pid!)).toBe(false);
    expect(killed).toEqual([renderer.pid]);

    // A renderer born after the parents were remembered is found on the pass after its birth.
    const late = child('renderer');
    children.push(late);
    await started(late);
    const lateExit = once(late, 'exit');
    await enforceRendererLimit({ browserPid: process.pid, limitBytes: 1, onKill: ({ pid }) => killed.push(pid) }, memory);
    expect(killed).toEqual([renderer.pid, late.pid]);
    expect((await lateExit)[1]).toBe('SIGKILL');
  });

  it('reads the parents of new processes only, and keeps none of a process that is gone', async () => {
    const first = await parents();
    expect(first.get(process.pid)).toBe(process.ppid);
    // A remembered parent is taken as it is: the wrong one planted here shows it was not read again.
    const planted = new Map(first).set(process.pid, -1);
    const proc = child('utility');
    children.push(proc);
    await started(proc);
    const next = await parents(planted);
    expect(next.get(process.pid)).toBe(-1);
    expect(next.get(proc.pid!)).toBe(process.pid);
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    expect((await parents(next)).has(proc.pid!)).toBe(false);
  });
});
