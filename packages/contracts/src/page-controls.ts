import { getDomain } from 'tldts';
import { z } from 'zod';

/**
 * Fields that set up the page a job loads (headers, cookies, user agent, basic auth, locale, ...),
 * their limits, and the rule that keeps what a request sets on the target's own site: headers and
 * credentials go only to it, and a cookie for another site is refused.
 */
export const PAGE_CONTROL_LIMITS = {
  maxHeaders: 50,
  maxHeaderNameLength: 256,
  maxHeaderValueLength: 4096,
  maxCookies: 50,
  maxCookieValueLength: 4096,
  maxUserAgentLength: 512,
  maxCredentialLength: 256,
  maxInjectedBytes: 64 * 1024,
  /** All headers, and all cookies, of one request together (they sit in the queued job in Redis). */
  maxHeadersBytes: 16 * 1024,
  maxCookiesBytes: 16 * 1024,
} as const;

/** RFC 9110 token characters: what a header or cookie name may hold. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Headers the browser owns or that another field sets (`cookies`, `http_auth`, `user_agent`, `locale`). */
const REFUSED_HEADERS = new Map<string, string>([
  ['host', 'the browser sets it from the URL'],
  ['content-length', 'the browser sets it'],
  ['transfer-encoding', 'the browser sets it'],
  ['connection', 'the browser sets it'],
  ['keep-alive', 'the browser sets it'],
  ['upgrade', 'the browser sets it'],
  ['te', 'the browser sets it'],
  ['trailer', 'the browser sets it'],
  ['proxy-authorization', 'it would go to the proxy'],
  ['cookie', 'use cookies'],
  ['user-agent', 'use user_agent'],
  ['accept-language', 'use locale'],
]);

export const headersField = z
  .record(
    z.string(),
    z
      .string({ error: 'must be a string' })
      .max(PAGE_CONTROL_LIMITS.maxHeaderValueLength, `must be at most ${PAGE_CONTROL_LIMITS.maxHeaderValueLength} characters`)
      .refine((value) => !CONTROL.test(value), 'must not contain control characters (line breaks included)'),
    { error: 'must be an object of header names to string values' },
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    const bytes = Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(value), 0);
    if (bytes > PAGE_CONTROL_LIMITS.maxHeadersBytes) {
      ctx.addIssue({
        code: 'custom',
        message: `must hold at most ${PAGE_CONTROL_LIMITS.maxHeadersBytes / 1024} KiB of names and values in all`,
      });
    }
    if (names.length > PAGE_CONTROL_LIMITS.maxHeaders) {
      ctx.addIssue({ code: 'custom', message: `must hold at most ${PAGE_CONTROL_LIMITS.maxHeaders} headers` });
    }
    for (const name of names) {
      if (name.length > PAGE_CONTROL_LIMITS.maxHeaderNameLength || !HTTP_TOKEN.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is not a valid header name' });
        continue;
      }
      const refused = REFUSED_HEADERS.get(name.toLowerCase());
      if (refused) ctx.addIssue({ code: 'custom', path: [name], message: `cannot be set here: ${refused}` });
    }
  });

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

/** Supacrawler's clients pass Playwright-style cookies (`httpOnly`, `sameSite`): both spellings are read. */
const cookieField = z.preprocess(
  (value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const { httpOnly, sameSite, ...rest } = value as Record<string, unknown>;
    return { ...rest, http_only: rest.http_only ?? httpOnly, same_site: rest.same_site ?? sameSite };
  },
  z.object(
    {
      name: z
        .string({ error: 'must be a string' })
        .min(1, 'must not be empty')
        .max(256, 'must be at most 256 characters')
        .refine((name) => HTTP_TOKEN.test(name), 'is not a valid cookie name'),
      value: z
        .string({ error: 'must be a string' })
        .max(PAGE_CONTROL_LIMITS.maxCookieValueLength, `must be at most ${PAGE_CONTROL_LIMITS.maxCookieValueLength} characters`)
        .refine((value) => !CONTROL.test(value) && !value.includes(';'), 'must not contain control characters or ";"'),
      domain: z.string({ error: 'must be a string' }).trim().toLowerCase().min(1).max(253).optional(),
      path: z
        .string({ error: 'must be a string' })
        .max(1024)
        .refine((path) => path.startsWith('/') && !CONTROL.test(path) && !path.includes(';'), 'must start with "/"')
        .optional(),
      secure: z.boolean({ error: 'must be true or false' }).optional(),
      http_only: z.boolean({ error: 'must be true or false' }).optional(),
      same_site: z
        .string()
        .transform((value) => value.toLowerCase())
        .pipe(z.enum(['strict', 'lax', 'none'], { error: 'must be one of Strict, Lax, None' }))
        .transform((value) => SAME_SITE[value])
        .optional(),
      expires: z.number({ error: 'must be a Unix time in seconds' }).min(0).optional(),
    },
    { error: 'must be an object with at least name and value' },
  ),
);

export type CookieInput = z.infer<typeof cookieField>;

export const cookiesField = z
  .array(cookieField, { error: 'must be an array of cookies' })
  .max(PAGE_CONTROL_LIMITS.maxCookies, `must hold at most ${PAGE_CONTROL_LIMITS.maxCookies} cookies`)
  .refine(
    (cookies) =>
      cookies.reduce((sum, cookie) => sum + Buffer.byteLength(cookie.name) + Buffer.byteLength(cookie.value), 0) <=
      PAGE_CONTROL_LIMITS.maxCookiesBytes,
    `must hold at most ${PAGE_CONTROL_LIMITS.maxCookiesBytes / 1024} KiB of names and values in all`,
  );

export const userAgentField = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(PAGE_CONTROL_LIMITS.maxUserAgentLength, `must be at most ${PAGE_CONTROL_LIMITS.maxUserAgentLength} characters`)
  .refine((value) => !CONTROL.test(value), 'must not contain control characters');

export const httpAuthField = z.object(
  {
    username: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(PAGE_CONTROL_LIMITS.maxCredentialLength)
      .refine((value) => !value.includes(':') && !CONTROL.test(value), 'must not contain ":" or control characters'),
    password: z
      .string({ error: 'must be a string' })
      .max(PAGE_CONTROL_LIMITS.maxCredentialLength)
      .refine((value) => !CONTROL.test(value), 'must not contain control characters'),
  },
  { error: 'must be an object with username and password' },
);

export const localeField = z
  .string({ error: 'must be a language tag such as en-US' })
  .trim()
  .max(35, 'must be at most 35 characters')
  .transform((value, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(value);
      if (canonical) return canonical;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a language tag such as en-US or de-DE' });
    return z.NEVER;
  });

export const timezoneField = z
  .string({ error: 'must be an IANA time zone such as Europe/Paris' })
  .trim()
  .max(64, 'must be at most 64 characters')
  .refine((value) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return value.length > 0;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Paris');

export const geolocationField = z.object(
  {
    latitude: z.number({ error: 'must be a number' }).min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
    longitude: z.number({ error: 'must be a number' }).min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'),
    accuracy: z.number({ error: 'must be a number' }).min(0).max(100_000, 'must be at most 100000 (metres)').optional(),
  },
  { error: 'must be an object with latitude and longitude' },
);

/** CSS or JS to inject: at most 64 KiB (counted in UTF-8 bytes). */
export const injectedCode = () =>
  z
    .string({ error: 'must be a string' })
    .refine(
      (value) => Buffer.byteLength(value, 'utf8') <= PAGE_CONTROL_LIMITS.maxInjectedBytes,
      `must be at most ${PAGE_CONTROL_LIMITS.maxInjectedBytes / 1024} KiB`,
    );

/** The registrable domain of a host (example.co.uk for a.b.example.co.uk); the host itself for IPs and single labels. */
export function siteOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** Whether `url` is on the same site (registrable domain) as `target`: where headers, cookies and credentials may go. */
export function isSameSite(url: string, target: string): boolean {
  try {
    return siteOf(new URL(url).hostname) === siteOf(new URL(target).hostname);
  } catch {
    return false;
  }
}

/**
 * Why a cookie cannot be set for `targetUrl`, or undefined when it can: its domain must be the
 * target's host or a parent of it within the target's site (never a public suffix).
 */
export function cookieDomainProblem(domain: string, targetUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(targetUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return undefined; // the URL's own error says it
  }
  const bare = domain.replace(/^\./, '');
  const onHost = host === bare || host.endsWith(`.${bare}`);
  if (!onHost || !bare.endsWith(siteOf(host))) {
    return `is for ${bare}, another site than the target's (${host}); cookies may be set for the target's own site only`;
  }
  return undefined;
}
