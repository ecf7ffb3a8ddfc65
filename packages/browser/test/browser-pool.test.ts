import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { startFixtureSite, type FixtureSite } from '@sitelens/testkit';
import type { BrowserPool } from '../src';
import { FIXTURES, eventually, expectAppError, testMetrics, testPool } from './support/helpers';

/** The profile directory Chromium was started with, read from its command line. */
function userDataDirOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const flag = args.find((arg) => arg.startsWith('--user-data-dir='));
  if (!flag) throw new Error('no --user-data-dir');
  return flag.slice('--user-data-dir='.length);
}

/** The Chromium browser processes (not their helpers) started by `parent`. */
function chromiumBrowsersOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        return ppid === parent && cmdline.includes('--user-data-dir=') && !cmdline.includes('--type=') ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('BrowserPool', () => {
  let site: FixtureSite;
  let pool: BrowserPool;
  const metrics = testMetrics();

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
    site.route('/hang', () => undefined);
    pool = testPool({ concurrency: 2 }, { metrics });
    await pool.start();
  });

  afterAll(async () => {
    await pool.close();
    await site.close();
  });

  it('caps concurrent contexts and hands slots out first come, first served', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    // The first jobs hold their slots until both run at once (an event, not a timed hold).
    let bothRunning: () => void = () => undefined;
    const overlapped = new Promise<void>((resolve) => (bothRunning = resolve));
    const jobs = Array.from({ length: 6 }, (_, i) =>
      pool.withContext(
        async ({ context }) => {
          started.push(i);
          running += 1;
          peak = Math.max(peak, running);
          if (running === 2) bothRunning();
          const page = await context.newPage();
          await page.goto(`${site.origin}/plain.html`);
          await overlapped;
          running -= 1;
          return page.title();
        },
        { timeoutMs: 10_000 },
      ),
    );
    expect(pool.stats()).toMatchObject({ inUse: 2, waiting: 4 });
    expect(await Promise.all(jobs)).toEqual(Array(6).fill('Plain'));
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
    expect(await metrics.browserPages.get()).toMatchObject({ values: [{ value: 0 }] });
  });

  it('gives each job its own incognito context and closes it afterwards', async () => {
    const seen: Array<{ closed: () => boolean; cookies: number }> = [];
    for (let i = 0; i < 2; i += 1) {
      await pool.withContext(
        async ({ context }) => {
          const page = await context.newPage();
          await page.goto(`${site.origin}/plain.html`);
          const before = (await context.cookies()).length;
          await context.setCookie({ name: 'job', value: String(i), domain: '127.0.0.1', path: '/' });
          seen.push({ closed: () => context.closed, cookies: before });
        },
        { timeoutMs: 10_000 },
      );
    }
    expect(seen.map((s) => s.cookies)).toEqual([0, 0]);
    expect(seen.every((s) => s.closed())).toBe(true);
  });

  it('removes a waiting job whose signal aborts, without running it', async () => {
    const release: Array<() => void> = [];
    const hold = () => pool.withContext(() => new Promise<void>((resolve) => release.push(resolve)), { timeoutMs: 10_000 });
    const holders = [hold(), hold()];
    const controller = new AbortController();
    let ran = false;
    const waiting = pool.withContext(
      async () => {
        ran = true;
      },
      { timeoutMs: 10_000, signal: controller.signal },
    );
    expect(pool.stats().waiting).toBe(1);
    controller.abort();
    await expectAppError(waiting, 'UNAVAILABLE', true);
    expect(pool.stats().waiting).toBe(0);
    await eventually(() => release.length === 2, 15_000);
    release.forEach((done) => done());
    await Promise.all(holders);
    expect(ran).toBe(false);
  });

  it('fails a job that outlives its timeout with TIMEOUT and frees its slot and context', async () => {
    let context: { closed: boolean } | undefined;
    // /hang never answers and goto has no timeout of its own: only the job's timeout ends this.
    const error = await expectAppError(
      pool.withContext(
        async (job) => {
          context = job.context;
          const page = await job.context.newPage();
          await page.goto(`${site.origin}/hang`, { timeout: 0 });
        },
        { timeoutMs: 700 },
      ),
      'TIMEOUT',
      false,
    );
    expect(error.message).toMatch(/did not finish within 0\.7 s/);
    expect(context?.closed).toBe(true);
    expect(pool.stats().inUse).toBe(0);
  });

  it('fails the running job as retryable when Chromium is killed, and the next job gets a new browser', async () => {
    const before = pool.stats();
    const pid = before.pid as number;
    expect(isRunning(pid)).toBe(true);
    const profile = userDataDirOf(pid);

    let onPage: () => void = () => undefined;
    const pageOpen = new Promise<void>((resolve) => (onPage = resolve));
    const running = pool.withContext(
      async ({ context }) => {
        const page = await context.newPage();
        onPage();
        await page.goto(`${site.origin}/hang`, { timeout: 0 });
      },
      { timeoutMs: 20_000 },
    );
    await pageOpen;
    process.kill(pid, 'SIGKILL');
    const error = await expectAppError(running, 'UNAVAILABLE', true);
    expect(error.message).toMatch(/Chromium stopped/);

    const title = await pool.withContext(
      async ({ context }) => {
        const page = await context.newPage();
        await page.goto(`${site.origin}/plain.html`);
        return page.title();
      },
      { timeoutMs: 20_000 },
    );
    expect(title).toBe('Plain');
    const after = pool.stats();
    expect(after.launches).toBe(before.launches + 1);
    expect(after.pid).not.toBe(pid);
    await eventually(() => !existsSync(profile), 15_000);
    expect(await metrics.browserLaunches.get()).toMatchObject({
      values: expect.arrayContaining([expect.objectContaining({ labels: { reason: 'crash' }, value: 1 })]),
    });
  });
});

describe('BrowserPool recycling and shutdown', () => {
  let site: FixtureSite;

  beforeAll(async () => {
    site = await startFixtureSite({ root: FIXTURES });
  });

  afterAll(async () => {
    await site.close();
  });

  it('recycles the browser after N contexts: the next one serves at once while in-flight jobs finish on the old', async () => {
    const pool = testPool({ concurrency: 2, recycleAfter: 2 });
    try {
      const visit = (hold: Promise<void> = Promise.resolve()) =>
        pool.withContext(
          async ({ context }) => {
            const page = await context.newPage();
            await page.goto(`${site.origin}/plain.html`);
            const pid = context.browser().process()?.pid;
            await hold;
            return pid;
          },
          { timeoutMs: 20_000 },
        );
      // Two contexts on the first browser; the first is held until the third has finished on the
      // next browser, which proves the recycle did not wait for it.
      let release: () => void = () => undefined;
      const held = visit(new Promise<void>((resolve) => (release = resolve)));
      const firstPid = await visit();
      const thirdPid = await visit();
      expect(thirdPid).not.toBe(firstPid);
      expect(isRunning(firstPid as number)).toBe(true);
      release();
      expect(await held).toBe(firstPid);
      // Its last job done, the old browser is closed and reaped.
      await eventually(() => !isRunning(firstPid as number), 15_000);
      expect(await visit()).toBe(thirdPid);
      expect(pool.stats()).toMatchObject({ launches: 2, contextsSinceLaunch: 2 });
    } finally {
      await pool.close();
    }
  });

  it('launches the next browser as many contexts before the recycle as it has slots, so no job waits for a launch', async () => {
    const pool = testPool({ concurrency: 2, recycleAfter: 4 });
    try {
      const visit = () => pool.withContext(async ({ context }) => context.browser().process()?.pid, { timeoutMs: 20_000 });
      const firstPid = await visit();
      expect(pool.stats().launches).toBe(1);
      // The second context leaves two before the recycle: the spare starts launching beside it.
      expect(await visit()).toBe(firstPid);
      await eventually(() => pool.stats().launches === 2, 15_000);
      expect(await visit()).toBe(firstPid);
      expect(await visit()).toBe(firstPid);
      // The recycle takes the spare: a new browser, and no launch for it now.
      const nextPid = await visit();
      expect(nextPid).not.toBe(firstPid);
      expect(pool.stats()).toMatchObject({ launches: 2, pid: nextPid, contextsSinceLaunch: 1 });
    } finally {
      await pool.close();
    }
  });

  it('close() also ends a spare browser no job has used', async () => {
    const pool = testPool({ concurrency: 2, recycleAfter: 3 });
    await pool.withContext(async () => undefined, { timeoutMs: 20_000 });
    await eventually(() => pool.stats().launches === 2, 15_000);
    // Both browsers are this process's children: the one in use and the spare.
    const browsers = chromiumBrowsersOf(process.pid);
    expect(browsers).toHaveLength(2);
    expect(browsers).toContain(pool.stats().pid);
    await pool.close();
    for (const pid of browsers) expect(isRunning(pid)).toBe(false);
  });

  it('close() also ends a recycled browser whose job is still running', async () => {
    const pool = testPool({ concurrency: 2, recycleAfter: 1 });
    const never = new Promise<void>(() => undefined);
    const stuck = pool.withContext(
      async ({ context }) => {
        await context.newPage();
        await never;
      },
      { timeoutMs: 60_000 },
    );
    stuck.catch(() => undefined);
    await eventually(() => pool.stats().pid !== undefined, 15_000);
    const firstPid = pool.stats().pid as number;
    // The next job recycles: a new browser serves it while the stuck one keeps the old alive.
    await pool.withContext(async () => undefined, { timeoutMs: 20_000 });
    expect(isRunning(firstPid)).toBe(true);
    await pool.close({ drainMs: 100 });
    expect(isRunning(firstPid)).toBe(false);
    await expect(stuck).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('close() waits for running jobs, stops Chromium, removes its profile and refuses new jobs', async () => {
    const pool = testPool({ concurrency: 1 });
    await pool.start();
    const pid = pool.stats().pid as number;
    const profile = userDataDirOf(pid);
    expect(existsSync(profile)).toBe(true);
    let onStart: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (onStart = resolve));
    let proceed: () => void = () => undefined;
    const closeBegun = new Promise<void>((resolve) => (proceed = resolve));
    const running = pool.withContext(
      async ({ context }) => {
        onStart();
        const page = await context.newPage();
        await closeBegun; // the page loads while close() is already waiting
        await page.goto(`${site.origin}/plain.html`);
        return page.title();
      },
      { timeoutMs: 10_000 },
    );
    const queued = pool.withContext(async () => 'never', { timeoutMs: 10_000 });
    queued.catch(() => undefined);
    await started;
    const closing = pool.close();
    proceed();
    await closing;
    expect(await running).toBe('Plain');
    await expectAppError(queued, 'UNAVAILABLE', true);
    await expectAppError(
      pool.withContext(async () => 'late', { timeoutMs: 1_000 }),
      'UNAVAILABLE',
      true,
    );
    expect(isRunning(pid)).toBe(false);
    expect(existsSync(profile)).toBe(false);
  });

  it('close() stops waiting after drainMs: a job still running fails as retryable', async () => {
    const pool = testPool({ concurrency: 1 });
    await pool.start();
    site.route('/hang', () => undefined);
    let onPage: () => void = () => undefined;
    const pageOpen = new Promise<void>((resolve) => (onPage = resolve));
    const stuck = pool.withContext(
      async ({ context }) => {
        const page = await context.newPage();
        onPage();
        await page.goto(`${site.origin}/hang`, { timeout: 0 });
      },
      { timeoutMs: 30_000 },
    );
    const outcome = expectAppError(stuck, 'UNAVAILABLE', true);
    await pageOpen;
    // The job's own timeout is 30 s: ending with the shut-down message shows the drain cut it short.
    await pool.close({ drainMs: 300 });
    const error = await outcome;
    expect(error.message).toBe('The browser pool shut down while the job was running');
  });

  it('reports a missing executable clearly', async () => {
    const pool = testPool({ executablePath: '/nonexistent/chromium' });
    const error = await expectAppError(
      pool.withContext(async () => 'x', { timeoutMs: 5_000 }),
      'UNAVAILABLE',
      false,
    );
    expect(error.message).toMatch(/CHROME_PATH \/nonexistent\/chromium is not an executable/);
    await pool.close();
  });
});
