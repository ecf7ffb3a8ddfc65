import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, type Browser } from 'puppeteer-core';
import { AppError, errorMessage } from '@sitelens/contracts';

/** Where Debian, Ubuntu and Google's packages put the browser, in the order we try them. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'] as const;

/**
 * Flags for a server-side, headless Chromium. The sandbox is off because the service usually runs
 * as root in a container (where Chromium refuses to start sandboxed); isolation comes from the
 * container and from one incognito context per job. Background services are off so the browser
 * makes no traffic of its own (the machine may have no internet at all), and QUIC is off so every
 * page request goes through the same TCP stack as the fetch path.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
] as const;

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

export interface LaunchedChromium {
  browser: Browser;
  userDataDir: string;
  /** The browser's user agent without the "Headless" marker many sites refuse. */
  userAgent: string;
}

export async function launchChromium(options: { executablePath: string; extraArgs?: readonly string[]; timeoutMs?: number }): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'sitelens-chromium-'));
  try {
    const browser = await launch({
      executablePath: options.executablePath,
      headless: true,
      pipe: true,
      userDataDir,
      args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
      defaultViewport: null,
      // The service owns its signals: shutdown closes the pool in order.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: options.timeoutMs ?? 30_000,
      protocolTimeout: 120_000,
    });
    const userAgent = (await browser.userAgent()).replace('HeadlessChrome', 'Chrome');
    return { browser, userDataDir, userAgent };
  } catch (error) {
    await removeDir(userDataDir);
    throw new AppError('UNAVAILABLE', `Chromium did not start: ${errorMessage(error)}`, {
      retryable: true,
      cause: error,
    });
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 }).catch(() => undefined);
}
