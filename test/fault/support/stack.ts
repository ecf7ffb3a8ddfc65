/**
 * The pieces fault tests put together: gateway and screenshot-worker processes on one Redis and
 * store (s3rver, or a shared DATA_DIR), a small local page that can hold requests open, and
 * bounded waits for jobs. Everything listens on 127.0.0.1.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRedis } from '@sitelens/queue';
import {
  chromePath,
  testRedisUrl,
  testS3,
  uniquePrefix,
  startFixtureSite,
  type FixtureSite,
  freePort,
  startService,
  waitForHttp,
  type ServiceProcess,
  descendants,
  killLeftovers,
  deletePrefix,
} from '@sitelens/testkit';

export type Json = Record<string, any>;

/** The smallest useful capture: a 400x300 custom viewport, short timeout. */
export const SMALL_SHOT = { device: 'custom', width: 400, height: 300, timeout: 20 } as const;

export interface StackEnvOptions {
  label: string;
  redisUrl?: string;
  storage?: 's3' | { dataDir: string };
  extra?: Record<string, string>;
}

/** Settings every process of one test shares: its own queue prefix, the same Redis and store. */
export function stackEnv(options: StackEnvOptions): Record<string, string> {
  const storage = options.storage ?? 's3';
  const store: Record<string, string> =
    storage === 's3'
      ? {
          STORAGE_DRIVER: 's3',
          S3_ENDPOINT: testS3().endpoint,
          S3_BUCKET: testS3().bucket,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
        }
      : { STORAGE_DRIVER: 'fs', DATA_DIR: storage.dataDir };
  return {
    REDIS_URL: options.redisUrl ?? testRedisUrl(),
    QUEUE_PREFIX: uniquePrefix(options.label),
    CHROME_PATH: chromePath(),
    SHUTDOWN_TIMEOUT: '5s',
    ...store,
    ...options.extra,
  };
}

export interface RunningGateway {
  proc: ServiceProcess;
  origin: string;
  port: number;
  /** Where its /metrics is: the API origin in local mode, the ops listener in hosted mode. */
  metricsUrl: string;
}

/** A gateway process; resolves once /v1/health answers (give `port` to take an old one's place). */
export async function startGatewayProcess(env: Record<string, string>, port?: number): Promise<RunningGateway> {
  const listen = port ?? (await freePort());
  // Hosted mode serves /metrics on the ops port (default :9464): give each gateway its own.
  const opsPort = await freePort();
  const proc = startService({ ...env, ROLE: 'gateway', HTTP_ADDR: `127.0.0.1:${listen}`, OPS_HTTP_ADDR: `127.0.0.1:${opsPort}` });
  const origin = `http://127.0.0.1:${listen}`;
  try {
    await waitForHttp(`${origin}/v1/health`);
  } catch (error) {
    await proc.stop('SIGKILL');
    throw new Error(`${String(error)}\n${proc.output()}`);
  }
  const metricsUrl = env.MODE === 'hosted' ? `http://127.0.0.1:${opsPort}/metrics` : `${origin}/metrics`;
  return { proc, origin, port: listen, metricsUrl };
}

export interface RunningWorker {
  proc: ServiceProcess;
  /** Its ops listener (/healthz, /readyz, /metrics). */
  opsUrl: string;
  /** Chromium and its helpers, as last seen by `browserPids()`; killed by `cleanup()`. */
  seen: Set<number>;
  /** The browser process (a direct child of the worker) and all of its helpers. */
  browserPids(): { browser: number | undefined; all: number[] };
  /** Stops the worker and kills any Chromium process it left behind; returns those leftovers. */
  cleanup(): Promise<number[]>;
}

/** A screenshot-worker process; resolves once /readyz is 200 (Redis connected, Chromium up). */
export async function startWorkerProcess(env: Record<string, string>): Promise<RunningWorker> {
  const port = await freePort();
  const proc = startService({ ...env, ROLE: 'screenshot-worker', OPS_HTTP_ADDR: `127.0.0.1:${port}` });
  const opsUrl = `http://127.0.0.1:${port}`;
  const seen = new Set<number>();
  const browserPids = () => {
    const pid = proc.child.pid;
    const tree = pid === undefined ? [] : descendants(pid);
    for (const info of tree) seen.add(info.pid);
    return { browser: tree.find((info) => info.ppid === pid && /chrom/i.test(info.comm))?.pid, all: tree.map((info) => info.pid) };
  };
  const worker: RunningWorker = {
    proc,
    opsUrl,
    seen,
    browserPids,
    async cleanup() {
      if (proc.child.exitCode === null && proc.child.signalCode === null) browserPids();
      await proc.stop();
      return killLeftovers([...seen]);
    },
  };
  try {
    await until(async () => (await fetch(`${opsUrl}/readyz`).catch(() => undefined))?.status === 200, 20_000, 'worker ready');
  } catch (error) {
    await worker.cleanup();
    throw new Error(`${String(error)}\n${proc.output()}`);
  }
  browserPids();
  return worker;
}

/** Polls `check` every 50 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function createShot(origin: string, url: string, extra: Json = {}): Promise<string> {
  const response = await fetch(`${origin}/v1/screenshots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, ...SMALL_SHOT, ...extra }),
  });
  const body = (await response.json()) as Json;
  if (response.status !== 202) throw new Error(`create answered ${response.status}: ${JSON.stringify(body)}`);
  return body.job_id as string;
}

/** Long-polls a screenshot job until it is no longer processing, for at most `timeoutMs`. */
export async function awaitShot(origin: string, jobId: string, timeoutMs: number): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = Math.ceil((deadline - Date.now()) / 1000);
    const wait = Math.max(1, Math.min(20, left));
    const response = await fetch(`${origin}/v1/screenshots?job_id=${jobId}&wait=${wait}`);
    const body = (await response.json()) as Json;
    if (response.status !== 202 || Date.now() >= deadline) return { http_status: response.status, ...body };
  }
}

/**
 * A small page that can hold its requests open: while closed, requests to `/held` wait (the page
 * is mid-navigation in Chromium); `open()` answers them and every later one at once.
 */
export interface HoldingSite {
  site: FixtureSite;
  /** Query strings of the held requests, in arrival order. */
  held: string[];
  pageUrl(tag?: string | number): string;
  heldUrl(tag: string | number): string;
  open(): void;
  close(): Promise<void>;
}

const PAGE = '<!doctype html><html><body style="margin:0;background:rgb(0,128,255)"><h1>fault</h1></body></html>';

export async function startHoldingSite(): Promise<HoldingSite> {
  const site = await startFixtureSite();
  const parked: ServerResponse[] = [];
  const held: string[] = [];
  let isOpen = false;
  const answer = (res: ServerResponse) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  };
  site.route('/page', (_req, res) => answer(res));
  site.route('/held', (req: IncomingMessage, res) => {
    if (isOpen) return answer(res);
    held.push(new URL(req.url ?? '/', 'http://fixture').search);
    parked.push(res);
  });
  return {
    site,
    held,
    pageUrl: (tag = '') => `${site.origin}/page?t=${tag}`,
    heldUrl: (tag) => `${site.origin}/held?t=${tag}`,
    open() {
      isOpen = true;
      for (const res of parked.splice(0)) answer(res);
    },
    async close() {
      isOpen = true;
      parked.splice(0);
      await site.close();
    },
  };
}

/** Fetches a presigned image URL and returns its PNG size. */
export async function imageSize(url: string): Promise<{ status: number; width?: number; height?: number }> {
  const response = await fetch(url);
  if (response.status !== 200) return { status: response.status };
  const bytes = Buffer.from(await response.arrayBuffer());
  // PNG: width and height are the first two fields of the IHDR chunk.
  return { status: 200, width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Deletes every Redis key under a test's queue prefix (tests clean up after themselves). */
export async function dropPrefix(prefix: string, redisUrl = testRedisUrl()): Promise<void> {
  const redis = createRedis(redisUrl, 'client', { retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await deletePrefix(redis, prefix);
  } catch {
    // the server is gone (a fault test stopped it): nothing left to clean
  } finally {
    redis.disconnect();
  }
}
