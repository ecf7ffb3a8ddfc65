import type { BrowserContext, CDPSession } from 'puppeteer-core';
import {
  AppError,
  TimeoutError,
  Unavailable,
  bounded,
  errorMessage,
  isAppError,
  rejectOnAbort,
  SlotQueue,
  type PhaseTimer,
} from '@sitelens/contracts';
import type { Config } from '@sitelens/config';
import type { Logger, Metrics } from '@sitelens/telemetry';
import { Adblocker } from './adblock';
import { CHROMIUM_CANDIDATES, findChromium, launchChromium, removeDir, type LaunchedChromium } from './chromium';
import { prioritiseChromium } from './chromium-priority';
import { closePopups } from './popups';
import { processTree, reapProcesses, watchRenderers, type RendererWatchdog } from './renderer-watchdog';
import { HostLists, type HostList, type HostListName } from './host-lists';

export type BrowserPoolConfig = Pick<Config['browser'], 'executablePath' | 'concurrency' | 'recycleAfter'> &
  Partial<
    Pick<
      Config['browser'],
      'adblockListUrls' | 'chatListUrls' | 'trackerListUrls' | 'filterListsDir' | 'pageMemoryLimitMb' | 'sandbox' | 'runAsUser' | 'env'
    >
  >;

export interface BrowserPoolDeps {
  logger: Logger;
  metrics?: Pick<Metrics, 'browserPages' | 'browserLaunches'>;
  /** Extra Chromium flags (tests map host names with `--host-resolver-rules`). */
  extraArgs?: readonly string[];
  /** The egress proxy every connection of the browser goes through (hosted mode). */
  proxyServer?: string;
  /** Executables tried when the config names none. */
  candidates?: readonly string[];
  /** How often the ad-block and host lists are fetched again while the pool lives (default daily). */
  adblockRefreshMs?: number;
}

/** What a job gets: its own incognito context and a signal that fires when it must stop. */
export interface BrowserJob {
  context: BrowserContext;
  /** A DevTools session with the browser itself (targets made in `context` without puppeteer's page setup). */
  browserSession: CDPSession;
  /** Aborts on the job's timeout, the caller's abort, a browser crash or a forced shutdown. */
  signal: AbortSignal;
  /** The browser's own user agent, without the "Headless" marker. */
  userAgent: string;
  /** The pool's ad blocker (built once, on first use). */
  adblocker(): Promise<Adblocker>;
  /** The pool's chat-widget and tracker host lists (bundled, refreshed from configured URLs). */
  hostList(name: HostListName): Promise<HostList>;
}

export interface WithContextOptions {
  signal?: AbortSignal;
  /** Bound on the job once it holds a slot (browser start included). */
  timeoutMs: number;
  /** Marks `slot` (waiting for one) and `context` (opening it). */
  phases?: PhaseTimer;
}

export interface BrowserPoolStats {
  inUse: number;
  waiting: number;
  launches: number;
  /** Chromium's process id, when one is running. */
  pid: number | undefined;
  contextsSinceLaunch: number;
}

/** One launched Chromium and the contexts opened on it. */
interface Generation {
  chromium: LaunchedChromium;
  browserSession: CDPSession;
  active: number;
  created: number;
  retiring: boolean;
  crashed: boolean;
  closing: boolean;
  /** Aborts when this Chromium goes away unexpectedly. */
  lost: AbortController;
  idle: Array<() => void>;
  watchdog: RendererWatchdog | undefined;
  /** Set once its close has begun. */
  retired?: Promise<void>;
}

const CLOSE_CONTEXT_TIMEOUT_MS = 5_000;
const CLOSE_BROWSER_TIMEOUT_MS = 5_000;

function cancelled(reason: unknown): AppError {
  if (isAppError(reason)) return reason;
  return new AppError('UNAVAILABLE', 'The job was cancelled', { retryable: true, cause: reason });
}

/**
 * One warm Chromium shared by all jobs of a process. Concurrency is capped by slots handed out
 * first-come first-served; each job gets a fresh incognito context that is closed when it ends. The
 * browser is relaunched when it dies (the job that was running fails as retryable) and recycled,
 * after its in-flight contexts finish, once it has served `recycleAfter` contexts; its successor is
 * launched `concurrency` contexts ahead (a spare), so the recycle costs no job a launch.
 */
export class BrowserPool {
  private readonly slots: SlotQueue;
  private current: Generation | undefined;
  private replacing: Promise<void> | undefined;
  /** The next browser, launched a few contexts before a recycle so that no job waits for it. */
  private spare: Promise<Generation | undefined> | undefined;
  /** Recycled browsers finishing their last jobs beside the current one. */
  private readonly draining = new Set<Generation>();
  private launches = 0;
  private active = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private closed = false;
  private closing: Promise<void> | undefined;
  private adblock: Promise<Adblocker> | undefined;
  private adblockTimer: NodeJS.Timeout | undefined;
  private lists: HostLists | undefined;
  private listsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: BrowserPoolConfig,
    private readonly deps: BrowserPoolDeps,
  ) {
    this.slots = new SlotQueue(config.concurrency);
  }

  /**
   * Launches the browser now (otherwise the first job does). The ad blocker is built at the first
   * `block_ads` job: with EasyList it takes ~0.3 s and ~55 MB of heap, which a worker whose jobs
   * never block ads should not carry.
   */
  async start(): Promise<void> {
    await this.ensureBrowser();
  }

  stats(): BrowserPoolStats {
    return {
      inUse: this.slots.inUse,
      waiting: this.slots.waiting,
      launches: this.launches,
      pid: this.current?.chromium.browser.process()?.pid,
      contextsSinceLaunch: this.current?.created ?? 0,
    };
  }

  /** The ad blocker, built from the bundled list on first call; configured lists are fetched in the background. */
  adblocker(): Promise<Adblocker> {
    this.adblock ??= Adblocker.load({
      listUrls: this.config.adblockListUrls,
      filterListsDir: this.config.filterListsDir,
      logger: this.deps.logger,
    }).then((blocker) => {
      if ((this.config.adblockListUrls ?? []).length > 0 && !this.closed) {
        void blocker.refresh();
        this.adblockTimer = setInterval(() => void blocker.refresh(), this.deps.adblockRefreshMs ?? 24 * 3600_000);
        this.adblockTimer.unref();
      }
      return blocker;
    });
    return this.adblock;
  }

  /** The chat and tracker host lists; configured lists are fetched in the background from the first call on. */
  hostList(name: HostListName): Promise<HostList> {
    if (!this.lists) {
      this.lists = new HostLists({
        urls: { chats: this.config.chatListUrls ?? [], trackers: this.config.trackerListUrls ?? [] },
        filterListsDir: this.config.filterListsDir,
        logger: this.deps.logger,
      });
      const lists = this.lists;
      if (lists.configured && !this.closed) {
        void lists.refresh();
        this.listsTimer = setInterval(() => void lists.refresh(), this.deps.adblockRefreshMs ?? 24 * 3600_000);
        this.listsTimer.unref();
      }
    }
    return this.lists.get(name);
  }

  /** Runs `fn` with a fresh incognito context, within a slot and the timeout; the context is always closed. */
  async withContext<T>(fn: (job: BrowserJob) => Promise<T>, options: WithContextOptions): Promise<T> {
    if (this.closed) throw new Unavailable('The browser pool is shut down');
    try {
      await this.slots.acquire(options.signal);
    } catch (error) {
      throw cancelled(error);
    }
    options.phases?.mark('slot');
    this.active += 1;
    const job = new AbortController();
    const onCallerAbort = () => job.abort(cancelled(options.signal?.reason));
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(
      () => job.abort(new TimeoutError(`The job did not finish within ${Math.round(options.timeoutMs / 100) / 10} s`)),
      options.timeoutMs,
    );
    let generation: Generation | undefined;
    let context: BrowserContext | undefined;
    let onLost: (() => void) | undefined;
    try {
      if (options.signal?.aborted) throw cancelled(options.signal.reason);
      const entering = this.enter();
      generation = await Promise.race([entering, rejectOnAbort(job.signal)]).catch((error: unknown) => {
        entering.then(
          (late) => this.leave(late),
          () => undefined,
        ); // the job gave up first
        throw error;
      });
      const lost = generation.lost.signal;
      onLost = () => job.abort(new Unavailable('Chromium stopped while the job was running'));
      if (lost.aborted) onLost();
      else lost.addEventListener('abort', onLost, { once: true });
      const browser = generation.chromium.browser;
      const creating = browser.createBrowserContext();
      context = await Promise.race([creating, rejectOnAbort(job.signal)]).catch((error: unknown) => {
        creating
          .then(
            (late) => late.close(),
            () => undefined,
          )
          .catch(() => undefined);
        throw error;
      });
      closePopups(context);
      options.phases?.mark('context');
      const running = fn({
        context,
        browserSession: generation.browserSession,
        signal: job.signal,
        userAgent: generation.chromium.userAgent,
        adblocker: () => this.adblocker(),
        hostList: (name) => this.hostList(name),
      });
      running.catch(() => undefined); // it may settle after the race is decided
      return await Promise.race([running, rejectOnAbort(job.signal)]);
    } catch (error) {
      // Whatever the job saw (a navigation error, a closed target), the browser going away is the cause.
      if (generation && (generation.crashed || !generation.chromium.browser.connected)) {
        throw new Unavailable('Chromium stopped while the job was running', { cause: error });
      }
      if (generation?.closing) throw new Unavailable('The browser pool shut down while the job was running', { cause: error });
      if (job.signal.aborted) throw job.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
      if (generation && onLost) generation.lost.signal.removeEventListener('abort', onLost);
      job.abort(new AppError('INTERNAL', 'The job has ended'));
      if (context)
        await bounded(
          context.close().catch(() => undefined),
          CLOSE_CONTEXT_TIMEOUT_MS,
        );
      if (generation) this.leave(generation);
      this.slots.release();
      this.active -= 1;
      if (this.active === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /**
   * Stops taking jobs, lets running ones finish for up to `drainMs`, then closes Chromium (jobs still
   * running fail as retryable) and removes its profile directory.
   */
  close(options: { drainMs?: number } = {}): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.adblockTimer) clearInterval(this.adblockTimer);
      if (this.listsTimer) clearInterval(this.listsTimer);
      this.slots.rejectAll(new Unavailable('The browser pool is shut down'));
      if (this.active > 0) {
        await bounded(new Promise<void>((resolve) => this.idleWaiters.push(resolve)), options.drainMs ?? 10_000);
      }
      // Past the drain, Chromium goes: jobs still on it fail as retryable, a pending recycle unblocks.
      const generation = this.current;
      this.current = undefined;
      if (generation) await this.retire(generation);
      await this.replacing?.catch(() => undefined);
      const spare = await this.spare;
      if (spare) await this.retire(spare);
      // Recycled browsers still finishing jobs go too (past the drain, like the current one).
      await Promise.all([...this.draining].map((old) => this.retire(old)));
    })();
    return this.closing;
  }

  /** Takes a context's place on a healthy, non-retiring browser, launching or recycling as needed. */
  private async enter(): Promise<Generation> {
    for (;;) {
      if (this.closed) throw new Unavailable('The browser pool is shut down');
      const generation = this.current;
      if (generation && !generation.retiring && generation.chromium.browser.connected) {
        generation.active += 1;
        generation.created += 1;
        if (generation.created >= this.config.recycleAfter) generation.retiring = true;
        // A slot's worth of contexts before the recycle, its successor starts launching.
        else if (this.config.recycleAfter - generation.created === this.config.concurrency) this.prepareSpare();
        this.deps.metrics?.browserPages.inc();
        return generation;
      }
      await this.ensureBrowser();
    }
  }

  private leave(generation: Generation): void {
    generation.active -= 1;
    this.deps.metrics?.browserPages.dec();
    if (generation.active === 0) for (const wake of generation.idle.splice(0)) wake();
  }

  /** Single flight: every caller waits for the same launch. */
  private ensureBrowser(): Promise<void> {
    const healthy = this.current && !this.current.retiring && this.current.chromium.browser.connected;
    if (healthy) return Promise.resolve();
    this.replacing ??= this.replace().finally(() => {
      this.replacing = undefined;
    });
    return this.replacing;
  }

  private async replace(): Promise<void> {
    const old = this.current;
    let reason = 'start';
    if (old) {
      old.retiring = true;
      const dead = old.crashed || !old.chromium.browser.connected;
      reason = dead ? 'crash' : 'recycle';
      if (this.current === old) this.current = undefined;
      if (dead) await this.retire(old);
      // A recycle takes the spare launched ahead (or launches one now) and lets the old browser
      // finish its in-flight jobs beside it (their own timeouts bound that): no job waits for it.
      else this.retireWhenIdle(old);
    }
    const spare = await this.takeSpare();
    const generation = spare ?? (await this.launch(reason));
    if (this.closed) {
      await this.retire(generation);
      throw new Unavailable('The browser pool is shut down');
    }
    // Watched from when it serves pages: an idle spare has no renderer of a tenant's to watch.
    generation.watchdog ??= this.watchdogFor(generation);
    this.current = generation;
  }

  private watchdogFor(generation: Generation): RendererWatchdog | undefined {
    const pid = generation.chromium.browser.process()?.pid;
    const memoryMb = this.config.pageMemoryLimitMb;
    if (!pid || !memoryMb) return undefined;
    return watchRenderers({
      browserPid: pid,
      limitBytes: memoryMb * 1024 * 1024,
      onKill: ({ pid: renderer, rssBytes }) =>
        this.deps.logger.warn(
          { renderer, rssMb: Math.round(rssBytes / 1048576), limitMb: memoryMb },
          'page over its memory limit; renderer killed',
        ),
    });
  }

  private prepareSpare(): void {
    if (this.spare || this.closed) return;
    this.spare = this.launch('recycle').catch((error: unknown) => {
      this.deps.logger.warn({ err: errorMessage(error) }, 'launching the next chromium ahead of a recycle failed');
      return undefined;
    });
  }

  /** The spare browser when one was launched and is still alive; a dead one is closed. */
  private async takeSpare(): Promise<Generation | undefined> {
    const pending = this.spare;
    this.spare = undefined;
    const spare = await pending;
    if (!spare) return undefined;
    if (!spare.crashed && spare.chromium.browser.connected) return spare;
    await this.retire(spare);
    return undefined;
  }

  private async launch(reason: string): Promise<Generation> {
    if (this.closed) throw new Unavailable('The browser pool is shut down');
    const executablePath = await findChromium(this.config.executablePath, this.deps.candidates ?? CHROMIUM_CANDIDATES);
    const memoryMb = this.config.pageMemoryLimitMb;
    const chromium = await launchChromium({
      executablePath,
      extraArgs: this.deps.extraArgs,
      proxyServer: this.deps.proxyServer,
      jsHeapMb: memoryMb ? Math.floor(memoryMb / 2) : undefined,
      sandbox: this.config.sandbox,
      runAsUser: this.config.runAsUser,
      env: this.config.env,
    });
    const pid = chromium.browser.process()?.pid;
    // Chromium's own thread priorities, which it cannot set when it runs unprivileged.
    const priority = pid ? await prioritiseChromium(pid).catch(() => undefined) : undefined;
    let browserSession: CDPSession;
    try {
      browserSession = await chromium.browser.target().createCDPSession();
    } catch (error) {
      await chromium.browser.close().catch(() => undefined);
      await removeDir(chromium.userDataDir);
      throw error;
    }
    const generation: Generation = {
      chromium,
      browserSession,
      active: 0,
      created: 0,
      retiring: false,
      crashed: false,
      closing: false,
      lost: new AbortController(),
      idle: [],
      watchdog: undefined,
    };
    chromium.browser.on('disconnected', () => this.onDisconnected(generation));
    this.launches += 1;
    this.deps.metrics?.browserLaunches.inc({ reason });
    this.deps.logger.info(
      {
        pid,
        reason,
        launches: this.launches,
        sandbox: chromium.sandboxed,
        user: chromium.user,
        egressProxy: Boolean(this.deps.proxyServer),
        priority,
      },
      chromium.sandboxed ? 'chromium launched (sandboxed)' : 'chromium launched WITHOUT its sandbox',
    );
    return generation;
  }

  private retireWhenIdle(generation: Generation): void {
    const idle = generation.active > 0 ? new Promise<void>((resolve) => generation.idle.push(resolve)) : Promise.resolve();
    this.draining.add(generation);
    void idle.then(() => this.retire(generation)).finally(() => this.draining.delete(generation));
  }

  private onDisconnected(generation: Generation): void {
    if (generation.closing) return;
    generation.crashed = true;
    generation.retiring = true;
    generation.watchdog?.stop();
    generation.lost.abort();
    this.deps.logger.warn({ activeContexts: generation.active }, 'chromium disconnected; relaunching');
    void removeDir(generation.chromium.userDataDir);
    // Relaunch at once so the next job finds a warm browser; a failure here is retried by that job.
    if (!this.closed && this.current === generation) {
      this.ensureBrowser().catch((error: unknown) => this.deps.logger.error({ err: errorMessage(error) }, 'chromium relaunch failed'));
    }
  }

  /** Closes a browser and reaps its processes; once, however many callers ask. */
  private retire(generation: Generation): Promise<void> {
    generation.retired ??= this.closeGeneration(generation);
    return generation.retired;
  }

  private async closeGeneration(generation: Generation): Promise<void> {
    generation.closing = true;
    generation.watchdog?.stop();
    const { browser, userDataDir } = generation.chromium;
    const child = browser.process();
    const helpers = child?.pid === undefined ? [] : await processTree(child.pid);
    await bounded(
      browser.close().catch(() => undefined),
      CLOSE_BROWSER_TIMEOUT_MS,
    );
    // Jobs still on it end now (as retryable), whatever they were waiting for.
    generation.lost.abort();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await bounded(exited, 2_000);
    }
    await reapProcesses(helpers, 2_000);
    await removeDir(userDataDir);
  }
}
