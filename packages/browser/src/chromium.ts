import { execFile } from 'node:child_process';
import { access, chmod, chown, constants, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { launch, type Browser } from 'puppeteer-core';
import { AppError, errorMessage } from '@sitelens/contracts';

/** Where Debian, Ubuntu and Google's packages put the browser, in the order we try them. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'] as const;

/**
 * Flags for a server-side, headless Chromium. Background services are off so the browser makes no
 * traffic of its own (the machine may have no internet at all); QUIC is off so every connection is
 * TCP, through the egress proxy when there is one; pages cannot open windows (a page opening
 * hundreds of them would take the worker's memory).
 *
 * Each job's incognito context opens a browser window, and this Chromium (156, new headless) gave
 * every window two omnibox-popup WebUI pages, each in a renderer of its own, and kept a spare
 * renderer for the default profile that no incognito page can use: three renderer processes
 * started for each job besides the page's own. Those features are off, so a job starts one.
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--block-new-web-contents',
  '--disable-features=SpareRendererForSitePerProcess,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
] as const;

/**
 * Flags that send every connection through the egress proxy: all schemes, no implicit bypass for
 * loopback names and addresses (`<-loopback>` removes it), and no WebRTC UDP outside the proxy.
 */
export function egressArgs(proxyServer: string): string[] {
  return [
    `--proxy-server=${proxyServer}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

export type SandboxMode = 'auto' | 'on' | 'off';

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The configured executable (which must exist) or the first installed candidate. */
export async function findChromium(configured: string | undefined, candidates: readonly string[] = CHROMIUM_CANDIDATES): Promise<string> {
  if (configured) {
    if (await isExecutable(configured)) return configured;
    throw new AppError('UNAVAILABLE', `CHROME_PATH ${configured} is not an executable file`);
  }
  for (const candidate of candidates) {
    if (await isExecutable(candidate)) return candidate;
  }
  throw new AppError('UNAVAILABLE', `No Chromium found (looked for ${candidates.join(', ')}); install it or set CHROME_PATH`);
}

export interface ChromiumLaunchOptions {
  executablePath: string;
  extraArgs?: readonly string[];
  timeoutMs?: number;
  /** The egress proxy every connection goes through (hosted mode). */
  proxyServer?: string;
  /** V8 heap of each renderer, in MB; a page past it dies alone (PAGE_CRASHED). */
  jsHeapMb?: number;
  sandbox?: SandboxMode;
  /** When this process is root: the unprivileged user Chromium runs as instead. */
  runAsUser?: string;
  /** Locale and time zone variables handed to Chromium (config `browser.env`; never secrets). */
  env?: Readonly<Record<string, string>>;
}

export interface LaunchedChromium {
  browser: Browser;
  /** The directory holding the profile (and the launcher when Chromium runs as another user). */
  userDataDir: string;
  /** The browser's user agent without the "Headless" marker many sites refuse. */
  userAgent: string;
  /** Whether Chromium's own sandbox is on. */
  sandboxed: boolean;
  /** The user Chromium runs as. */
  user: string;
}

const execFileAsync = promisify(execFile);

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', user]), execFileAsync('id', ['-g', user])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Only what Chromium needs: no Redis URL, model key, webhook or signing secret from the service's
 * environment reaches the browser or anything a page could make it run.
 */
function browserEnv(home: string, locale: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return {
    ...locale,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
}

interface LaunchPlan {
  sandboxed: boolean;
  user: string;
  executablePath: string;
  profileDir: string;
}

/**
 * Where Chromium runs: as root it cannot use its sandbox, so it runs as `runAsUser` through
 * setpriv (with no capabilities and no supplementary groups), its profile owned by that user.
 */
async function plan(root: string, options: ChromiumLaunchOptions, sandboxed: boolean): Promise<LaunchPlan> {
  const profileDir = path.join(root, 'profile');
  await mkdir(profileDir, { recursive: true });
  const asRoot = isRoot();
  if (!asRoot || !options.runAsUser)
    return { sandboxed, user: asRoot ? 'root' : String(process.getuid?.() ?? ''), executablePath: options.executablePath, profileDir };
  const { uid, gid } = await idsOf(options.runAsUser);
  await chmod(root, 0o755);
  await chown(profileDir, uid, gid);
  const launcher = path.join(root, 'launch-chromium');
  const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  await writeFile(
    launcher,
    `#!/bin/sh\nexec setpriv --reuid=${uid} --regid=${gid} --clear-groups --inh-caps=-all --bounding-set=-all -- ${quoted(options.executablePath)} "$@"\n`,
    { mode: 0o755 },
  );
  return { sandboxed, user: options.runAsUser, executablePath: launcher, profileDir };
}

async function start(options: ChromiumLaunchOptions, launchPlan: LaunchPlan): Promise<Browser> {
  const args = [
    ...CHROMIUM_ARGS,
    ...(launchPlan.sandboxed ? [] : ['--no-sandbox']),
    ...(options.jsHeapMb ? [`--js-flags=--max-old-space-size=${options.jsHeapMb}`] : []),
    ...(options.proxyServer ? egressArgs(options.proxyServer) : []),
    ...(options.extraArgs ?? []),
  ];
  return launch({
    executablePath: launchPlan.executablePath,
    headless: true,
    pipe: true,
    userDataDir: launchPlan.profileDir,
    args,
    env: browserEnv(launchPlan.profileDir, options.env),
    defaultViewport: null,
    // The service owns its signals: shutdown closes the pool in order.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: options.timeoutMs ?? 30_000,
    protocolTimeout: 120_000,
  });
}

/**
 * Starts Chromium. With `sandbox: 'auto'` (the default) its sandbox is used where the kernel
 * allows it, and when it cannot start sandboxed it starts without, saying so (`sandboxed: false`);
 * `on` fails instead, `off` never tries.
 */
export async function launchChromium(options: ChromiumLaunchOptions): Promise<LaunchedChromium> {
  const root = await mkdtemp(path.join(tmpdir(), 'sitelens-chromium-'));
  const mode = options.sandbox ?? 'auto';
  // Chromium refuses its sandbox to root: as root it needs a user to run as.
  const sandboxPossible = !isRoot() || Boolean(options.runAsUser);
  const attempts = mode === 'off' ? [false] : mode === 'on' ? [true] : sandboxPossible ? [true, false] : [false];
  let lastError: unknown;
  for (const sandboxed of attempts) {
    try {
      const launchPlan = await plan(root, options, sandboxed);
      const browser = await start(options, launchPlan);
      const userAgent = (await browser.userAgent()).replace('HeadlessChrome', 'Chrome');
      return { browser, userDataDir: root, userAgent, sandboxed, user: launchPlan.user };
    } catch (error) {
      lastError = error;
      await rm(path.join(root, 'profile'), { recursive: true, force: true }).catch(() => undefined);
    }
  }
  await removeDir(root);
  throw new AppError('UNAVAILABLE', `Chromium did not start: ${errorMessage(lastError)}`, { retryable: true, cause: lastError });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }).catch(() => undefined);
}
