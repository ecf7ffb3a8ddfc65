import { z } from 'zod';
import { parseApiKeys, type StaticApiKey } from './api-keys';
import { parseDuration } from './duration';
import { parseEgressAllow, type EgressAllow } from './egress-allow';
import { parseHttpAddr, type ListenAddress } from './http-addr';
import { defaultScreenshotConcurrency, machineShape, type MachineShape } from './machine';

/**
 * Every setting of the service, read from the environment once. This is the only module that
 * looks at environment variables; everything else receives a `Config`.
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const bool = (fallback?: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
    .optional()
    .transform((v) => v ?? fallback);

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration such as 500ms, 30s, 5m, 24h` });
        return z.NEVER;
      }
      return ms;
    });

const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const int = (fallback: number, min: number, max: number) => wholeNumber(min, max).default(fallback);

/** A whole number, or undefined when unset or empty (its default is worked out elsewhere). */
const optionalInt = (min: number, max: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? undefined : v), wholeNumber(min, max).optional());

/**
 * Debian's `webext-ublock-origin-chromium` ships EasyList and EasyPrivacy here, kept current by
 * Debian's stable updates; setup and the image install it (FILTER_LISTS_DIR overrides).
 */
export const DEBIAN_FILTER_LISTS_DIR = '/usr/share/chromium/extensions/ublock-origin/assets/thirdparties/easylist';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const listenAddress = z
  .string()
  .default(':8081')
  .transform((value, ctx): ListenAddress => {
    const addr = parseHttpAddr(value);
    if (!addr) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not host:port or :port` });
      return z.NEVER;
    }
    return addr;
  });

/** Like `listenAddress`, and `off` (or empty) turns the listener off; unset stays undefined. */
const optionalListenAddress = z
  .string()
  .optional()
  .transform((value, ctx): ListenAddress | 'off' | undefined => {
    if (value === undefined) return undefined;
    if (['', 'off'].includes(value.trim())) return 'off';
    const addr = parseHttpAddr(value);
    if (!addr) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not host:port, :port or off` });
      return z.NEVER;
    }
    return addr;
  });
/** The ops listener's default (probes and metrics, as Prometheus exporters commonly use). */
const DEFAULT_OPS_ADDR: ListenAddress = { host: '', port: 9464 };

/** An absolute URL with one of `schemes` ("localhost:8080" parses as a URL, but not as one of these). */
const urlText = (schemes: readonly string[]) =>
  z.string().refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol.slice(0, -1));
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`,
  );
const WEB = ['http', 'https'] as const;
/** An unset or blank variable (`OPENAI_BASE_URL=` in an env file) is no URL at all. */
const optionalUrl = (schemes: readonly string[] = WEB) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), urlText(schemes).optional());

export const ROLES = ['all', 'gateway', 'screenshot-worker', 'parse-worker'] as const;
export type Role = (typeof ROLES)[number];

const envSchema = z.object({
  MODE: z.enum(['local', 'hosted'], { error: 'must be local or hosted' }).default('local'),
  ROLE: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).default('all'),
  HTTP_ADDR: listenAddress,
  OPS_HTTP_ADDR: optionalListenAddress,
  /** Deprecated name of OPS_HTTP_ADDR, still read when OPS_HTTP_ADDR is unset. */
  WORKER_HTTP_ADDR: optionalListenAddress,
  PUBLIC_BASE_URL: optionalUrl().transform((v) => v?.replace(/\/+$/, '')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  REDIS_URL: urlText(['redis', 'rediss']).default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, _ . or -')
    .default('sitelens'),
  JOB_RETENTION: duration('24h'),
  JOB_QUEUE_TIMEOUT: duration('10m'),
  QUEUE_EVENTS_MAX_LEN: int(1_000, 10, 1_000_000),

  STORAGE_DRIVER: z.enum(['fs', 's3'], { error: 'must be fs or s3' }).default('fs'),
  DATA_DIR: z.string().default('.data'),
  URL_SIGNING_SECRET: optionalText,
  S3_ENDPOINT: optionalUrl(),
  S3_PUBLIC_ENDPOINT: optionalUrl(),
  S3_BUCKET: z.string().default('sitelens'),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool(true),

  CHROME_PATH: optionalText,
  // Default: defaultScreenshotConcurrency(the machine's CPUs and memory).
  SCREENSHOT_CONCURRENCY: optionalInt(1, 64),
  SCREENSHOT_PREFETCH: int(1, 0, 16),
  BROWSER_RECYCLE_AFTER: int(1000, 1, 100_000),
  FULL_PAGE_MAX_HEIGHT: int(16_384, 1000, 65_535),
  SCREENSHOT_MAX_PIXELS: int(50_000_000, 1_000_000, 500_000_000),
  PAGE_MEMORY_LIMIT_MB: int(1024, 128, 16_384),
  CHROMIUM_SANDBOX: z.enum(['auto', 'on', 'off'], { error: 'must be auto, on or off' }).default('auto'),
  CHROMIUM_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]{0,31}$|^[0-9]{1,10}$/, 'must be a user name or a numeric uid')
    .default('nobody'),
  ADBLOCK_LIST_URLS: optionalText,
  /** Where EasyList and EasyPrivacy are read from ('' turns them off); Debian's uBlock Origin package by default. */
  FILTER_LISTS_DIR: z.string().optional(),
  CHAT_LIST_URLS: optionalText,
  TRACKER_LIST_URLS: optionalText,
  SHUTDOWN_TIMEOUT: duration('25s'),

  ALLOW_PRIVATE_URLS: bool(),
  EGRESS_ALLOW: optionalText.transform((value, ctx): EgressAllow => {
    const parsed = parseEgressAllow(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.allow;
  }),
  API_KEYS: optionalText.transform((value, ctx): StaticApiKey[] => {
    const parsed = parseApiKeys(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.keys;
  }),
  ADMIN_TOKEN: optionalText,
  WEBHOOK_SECRET: optionalText,
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  SMTP_FROM: z.string().trim().min(1, 'must not be empty').default('Sitelens <sitelens@localhost>'),

  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl(),
  LLM_MODEL: optionalText,
  PARSE_MAX_RETRIES: int(3, 0, 10),
  PARSE_TIMEOUT: duration('30s'),
  PARSE_CONCURRENCY: int(4, 1, 32),
  CRAWL_CONCURRENCY: int(4, 1, 64),

  CONTENT_TIMEOUT: duration('5s'),
  RESULT_PAGE_MAX_BYTES: int(16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  DOCUMENT_MAX_BYTES: int(20 * 1024 * 1024, 1024, 512 * 1024 * 1024),
  RESULT_MAX_BYTES: int(128 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
});

export type Env = Record<string, string | undefined>;

/** Variables passed through to Chromium (nothing else of the environment is). */
const BROWSER_ENV = ['LANG', 'LC_ALL', 'TZ', 'FONTCONFIG_PATH'] as const;

export interface Config {
  mode: 'local' | 'hosted';
  role: Role;
  http: ListenAddress;
  /**
   * The ops listener (OPS_HTTP_ADDR; WORKER_HTTP_ADDR is its deprecated name): /healthz, /readyz
   * and /metrics of a worker-only process, and in hosted mode the gateway's /metrics (kept off
   * the public port). Undefined where nothing serves it: a local gateway (ROLE=gateway or all)
   * answers /metrics on its API port, and `off` turns it off.
   */
  opsHttp: ListenAddress | undefined;
  publicBaseUrl: string | undefined;
  logLevel: string;
  /** `eventsMaxLen`: the approximate cap on each queue's event stream (QUEUE_EVENTS_MAX_LEN). */
  redis: { url: string; prefix: string; eventsMaxLen: number };
  jobRetentionMs: number;
  /** How long a job may wait in a queue before it is reported failed. */
  jobQueueTimeoutMs: number;
  storage: {
    driver: 'fs' | 's3';
    dataDir: string;
    signingSecret: string | undefined;
    s3: {
      endpoint: string | undefined;
      publicEndpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };
  };
  browser: {
    executablePath: string | undefined;
    concurrency: number;
    /** Jobs a screenshot worker picks up beyond `concurrency`, ready for the next free page slot. */
    prefetch: number;
    recycleAfter: number;
    fullPageMaxHeight: number;
    /** Most pixels one capture may have: width x height x scale squared (full pages are cut to it). */
    maxPixels: number;
    /** Resident memory one renderer (page) may use before it is killed; its JS heap gets half. */
    pageMemoryLimitMb: number;
    /** Chromium's sandbox: `auto` uses it where the kernel allows, `on` requires it, `off` never. */
    sandbox: 'auto' | 'on' | 'off';
    /** The unprivileged user Chromium runs as when the service itself runs as root. */
    runAsUser: string;
    /** The only variables of this environment Chromium inherits: locale and time zone. */
    env: Record<string, string>;
    adblockListUrls: string[];
    /** Folder holding easylist.txt and easyprivacy.txt (maintained lists); undefined: bundled lists only. */
    filterListsDir: string | undefined;
    /** Chat-widget host lists fetched and added to the bundled one (block_chats). */
    chatListUrls: string[];
    /** Tracker host lists fetched and added to the bundled one (block_trackers). */
    trackerListUrls: string[];
  };
  shutdownTimeoutMs: number;
  allowPrivateUrls: boolean;
  /** What hosted mode may reach although it is private (EGRESS_ALLOW); empty by default. */
  egressAllow: EgressAllow;
  /** Static keys from API_KEYS (hosted mode); issued keys live in Redis. */
  apiKeys: StaticApiKey[];
  adminToken: string | undefined;
  /**
   * HMAC key of the webhooks of local mode and of static API_KEYS keys. Unset in local mode: one
   * generated into DATA_DIR/.webhook-secret (never URL_SIGNING_SECRET). Issued keys (hosted mode)
   * sign with their own secret, kept in Redis.
   */
  webhookSecret: string | undefined;
  /** Outgoing mail for watch notifications; no email is sent without `url` (smtp:// or smtps://). */
  smtp: { url: string | undefined; from: string };
  llm: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string | undefined;
    maxRetries: number;
    timeoutMs: number;
    concurrency: number;
  };
  crawlConcurrency: number;
  /** Budget of one page's content extraction (CONTENT_TIMEOUT); past it the thread is terminated. */
  contentTimeoutMs: number;
  /**
   * Job results live in the blob store, not Redis. A page's bodies are cut at `pageMaxBytes`
   * (RESULT_PAGE_MAX_BYTES), a job's result at `jobMaxBytes` (RESULT_MAX_BYTES); a cut is reported.
   */
  results: { pageMaxBytes: number; jobMaxBytes: number };
  /** Largest PDF or DOCX scrape, crawl and parse read (DOCUMENT_MAX_BYTES); larger ones are 413. */
  documentMaxBytes: number;
}

/** Reads and validates the environment. Throws a ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env, machine: () => MachineShape = machineShape): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    mode: e.MODE,
    role: e.ROLE,
    http: e.HTTP_ADDR,
    opsHttp: opsAddressOf(e),
    publicBaseUrl: e.PUBLIC_BASE_URL,
    logLevel: e.LOG_LEVEL,
    redis: { url: e.REDIS_URL, prefix: e.QUEUE_PREFIX, eventsMaxLen: e.QUEUE_EVENTS_MAX_LEN },
    jobRetentionMs: e.JOB_RETENTION,
    jobQueueTimeoutMs: e.JOB_QUEUE_TIMEOUT,
    storage: {
      driver: e.STORAGE_DRIVER,
      dataDir: e.DATA_DIR,
      signingSecret: e.URL_SIGNING_SECRET,
      s3: {
        endpoint: e.S3_ENDPOINT,
        publicEndpoint: e.S3_PUBLIC_ENDPOINT,
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE ?? true,
      },
    },
    browser: {
      executablePath: e.CHROME_PATH,
      concurrency: e.SCREENSHOT_CONCURRENCY ?? defaultScreenshotConcurrency(machine()),
      prefetch: e.SCREENSHOT_PREFETCH,
      recycleAfter: e.BROWSER_RECYCLE_AFTER,
      fullPageMaxHeight: e.FULL_PAGE_MAX_HEIGHT,
      maxPixels: e.SCREENSHOT_MAX_PIXELS,
      pageMemoryLimitMb: e.PAGE_MEMORY_LIMIT_MB,
      sandbox: e.CHROMIUM_SANDBOX,
      runAsUser: e.CHROMIUM_USER,
      env: Object.fromEntries(BROWSER_ENV.flatMap((name) => (env[name] ? [[name, env[name]!]] : []))),
      adblockListUrls: urlList(e.ADBLOCK_LIST_URLS),
      filterListsDir: e.FILTER_LISTS_DIR === undefined ? DEBIAN_FILTER_LISTS_DIR : e.FILTER_LISTS_DIR.trim() || undefined,
      chatListUrls: urlList(e.CHAT_LIST_URLS),
      trackerListUrls: urlList(e.TRACKER_LIST_URLS),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS ?? e.MODE === 'local',
    egressAllow: e.EGRESS_ALLOW,
    apiKeys: e.API_KEYS,
    adminToken: e.ADMIN_TOKEN,
    webhookSecret: e.WEBHOOK_SECRET,
    smtp: { url: e.SMTP_URL, from: e.SMTP_FROM },
    llm: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL,
      model: e.LLM_MODEL,
      maxRetries: e.PARSE_MAX_RETRIES,
      timeoutMs: e.PARSE_TIMEOUT,
      concurrency: e.PARSE_CONCURRENCY,
    },
    crawlConcurrency: e.CRAWL_CONCURRENCY,
    contentTimeoutMs: e.CONTENT_TIMEOUT,
    results: { pageMaxBytes: e.RESULT_PAGE_MAX_BYTES, jobMaxBytes: e.RESULT_MAX_BYTES },
    documentMaxBytes: e.DOCUMENT_MAX_BYTES,
  };
}

/** A comma-separated list of URLs (list sources an operator configures). */
function urlList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function opsAddressOf(e: z.infer<typeof envSchema>): ListenAddress | undefined {
  const workerOnly = e.ROLE === 'screenshot-worker' || e.ROLE === 'parse-worker';
  if (!workerOnly && e.MODE !== 'hosted') return undefined;
  const chosen = e.OPS_HTTP_ADDR ?? e.WORKER_HTTP_ADDR ?? DEFAULT_OPS_ADDR;
  return chosen === 'off' ? undefined : chosen;
}

/**
 * Where a worker serves its probes and metrics: OPS_HTTP_ADDR, except with ROLE=all, where the
 * gateway owns the process's one ops listener (hosted mode) or serves /metrics itself (local).
 */
export function workerOpsAddress(config: Pick<Config, 'role' | 'opsHttp'>): ListenAddress | undefined {
  return config.role === 'all' ? undefined : config.opsHttp;
}

/** Names of every environment variable the service reads, for docs and manifest checks. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);
