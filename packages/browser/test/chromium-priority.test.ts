/**
 * Chromium's thread priorities when it runs unprivileged: as root the pool raises the browser and
 * GPU processes to nice -8 (what Chromium asks for itself), and unprivileged it lowers the zygotes
 * to +8 so every renderer forked afterwards runs below the browser.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { LOWERED_NICE, RAISED_NICE, prioritiseChromium, roleOf } from '../src/chromium-priority';
import { launchChromium, type LaunchedChromium } from '../src/chromium';
import { processTree } from '../src/renderer-watchdog';
import { chromePath } from '@sitelens/testkit';
import { testPool } from './support/helpers';

const isRoot = process.getuid?.() === 0;

/** Nice value of every thread of `pid` (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

describe('roleOf', () => {
  it('tells the browser, GPU process and zygotes apart, sandboxed command lines included', () => {
    expect(roleOf('/usr/lib/chromium/chromium --headless', true, false)).toBe('browser');
    expect(roleOf('chromium --type=gpu-process --gpu-preferences=AAA', false, true)).toBe('gpu');
    // A sandboxed GPU process has rewritten its command line: its preferences stay.
    expect(roleOf('profile --change-stack-guard-on-fork=enable --gpu-preferences=AAA --shared-files', false, true)).toBe('gpu');
    expect(roleOf('chromium --type=zygote --no-zygote-sandbox', false, true)).toBe('zygote');
    expect(roleOf('profile --change-stack-guard-on-fork=enable --no-first-run --ozone-platform=headless', false, true)).toBe('zygote');
    expect(roleOf('profile --field-trial-handle=3,i,1 --renderer-client-id=5', false, false)).toBe('other');
    expect(roleOf('profile --field-trial-handle=3,i,1 --shared-files=v8_context_snapshot_data:100', false, true)).toBe('other');
  });
});

(isRoot ? describe : describe.skip)('as root', () => {
  it('the pool raises the browser and GPU processes to nice -8 and leaves renderers at 0', async () => {
    const pool = testPool({ runAsUser: 'nobody', sandbox: 'auto' });
    try {
      await pool.start();
      const pid = pool.stats().pid!;
      expect(new Set(threadNices(pid))).toEqual(new Set([RAISED_NICE]));
      const tree = await processTree(pid);
      const gpu = tree.find((child) => cmdline(child).includes('--gpu-preferences='));
      expect(gpu).toBeDefined();
      // The GPU process's threads at launch are raised; one it starts after the passes has been
      // seen at normal priority under a loaded suite, so the main thread and most threads are asked.
      const gpuNices = threadNices(gpu!);
      expect(getPriority(gpu!)).toBe(RAISED_NICE);
      expect(gpuNices.filter((nice) => nice === RAISED_NICE).length).toBeGreaterThan(gpuNices.length / 2);
      const zygotes = tree.filter((child) => roleOf(cmdline(child), false, true) === 'zygote');
      expect(zygotes.length).toBeGreaterThan(0);
      for (const zygote of zygotes) expect(threadNices(zygote)).not.toContain(RAISED_NICE);
    } finally {
      await pool.close();
    }
  });
});

describe('unprivileged', () => {
  let chromium: LaunchedChromium;
  afterEach(async () => {
    await chromium?.browser.close();
  });

  it('lowers the zygotes to nice +8, and renderers forked afterwards inherit it', async () => {
    // Run as another user when this is root, so Chromium cannot raise any priority itself.
    chromium = await launchChromium({ executablePath: chromePath(), sandbox: 'off', runAsUser: isRoot ? 'nobody' : undefined });
    const pid = chromium.browser.process()!.pid!;
    const counts = await prioritiseChromium(pid, false);
    expect(counts.raised).toBe(0);
    expect(counts.lowered).toBeGreaterThan(0);
    expect(new Set(threadNices(pid))).toEqual(new Set([0]));

    // Renderers forked before the zygotes were lowered (Chromium keeps a spare one) keep their nice;
    // every one forked after inherits +8. Two pages in contexts of their own need fresh ones.
    const renderersNow = async () => (await processTree(pid)).filter((child) => cmdline(child).includes('--type=renderer'));
    const before = new Set(await renderersNow());
    const context = await chromium.browser.createBrowserContext();
    for (const site of ['<p>one</p>', '<p>two</p>']) await (await context.newPage()).setContent(site);
    const other = await chromium.browser.createBrowserContext();
    await (await other.newPage()).setContent('<p>three</p>');
    const forked = (await renderersNow()).filter((renderer) => !before.has(renderer));
    expect(forked.length).toBeGreaterThan(0);
    // Every thread of those at +8 or lower (Chromium may lower a background one further itself).
    for (const renderer of forked) for (const nice of threadNices(renderer)) expect(nice).toBeGreaterThanOrEqual(LOWERED_NICE);
    await other.close();
    await context.close();
  });
});
