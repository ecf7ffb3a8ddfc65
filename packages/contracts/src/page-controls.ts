import { getDomain } from 'tldts';
import { z } from 'zod';
import { cssSelector, queryBoolean } from './fields';

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

/** `wait_for_selectors` (scrape, crawl): at most this many, each at most `maxSelectorLength`. */
export const WAIT_FOR_SELECTORS_LIMITS = { maxSelectors: 10, maxSelectorLength: 500 } as const;

/** A query string carries objects as JSON text (`headers={"x-a":"1"}`); JSON bodies carry them as they are. */
const jsonText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON (in a query string, objects and arrays are sent as JSON text)' });
      return z.NEVER;
    }
  }, schema);

/** One selector or a list; a query string repeats the parameter (`wait_for_selectors=a&wait_for_selectors=b`). */
export const waitForSelectorsField = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z
    .array(cssSelector(WAIT_FOR_SELECTORS_LIMITS.maxSelectorLength), { error: 'must be an array of CSS selectors' })
    .max(WAIT_FOR_SELECTORS_LIMITS.maxSelectors, `must hold at most ${WAIT_FOR_SELECTORS_LIMITS.maxSelectors} selectors`),
);

/**
 * The page context scrape, crawl and watch take (a screenshot takes these among its own fields):
 * what the page is sent (headers, cookies, user agent, basic auth, language) and whether consent
 * walls are answered.
 */
export const pageContextFields = {
  headers: headersField.optional(),
  cookies: cookiesField.optional(),
  user_agent: userAgentField.optional(),
  http_auth: httpAuthField.optional(),
  locale: localeField.optional(),
  block_cookies: z.boolean({ error: 'must be true or false' }).default(false),
};

/** The same fields read from a query string (GET /v1/scrape): objects as JSON text, booleans as words. */
export const pageContextQueryFields = {
  ...pageContextFields,
  headers: jsonText(headersField).optional(),
  cookies: jsonText(cookiesField).optional(),
  http_auth: jsonText(httpAuthField).optional(),
  block_cookies: queryBoolean().default(false),
};

export interface PageContextRequest {
  url?: string;
  headers?: Record<string, string>;
  cookies?: CookieInput[];
  user_agent?: string;
  http_auth?: { username: string; password: string };
  locale?: string;
  block_cookies?: boolean;
}

/** Refuses cookies for another site than the request's URL (a superRefine step of every schema with a page context). */
export function checkPageContext(value: PageContextRequest, ctx: z.RefinementCtx): void {
  (value.cookies ?? []).forEach((cookie, index) => {
    const problem = cookie.domain === undefined || value.url === undefined ? undefined : cookieDomainProblem(cookie.domain, value.url);
    if (problem) ctx.addIssue({ code: 'custom', path: ['cookies', index, 'domain'], message: problem });
  });
}

/** The context a page is loaded with, as the web and browser layers take it. */
export interface PageContext {
  /** The site headers, credentials and host-only cookies belong to (the request's URL). */
  targetUrl: string;
  headers?: Readonly<Record<string, string>>;
  cookies?: readonly CookieInput[];
  userAgent?: string;
  httpAuth?: { username: string; password: string };
  locale?: string;
  blockCookies?: boolean;
  /** CSS selectors that must all be in the rendered page before it is read. */
  waitForSelectors?: readonly string[];
}

/** A request's page context fields as the web layer takes them; undefined when none is set. */
export function pageContextOf(
  request: PageContextRequest & { url: string; wait_for_selectors?: readonly string[] },
): PageContext | undefined {
  const context: PageContext = {
    targetUrl: request.url,
    ...(request.headers && Object.keys(request.headers).length > 0 ? { headers: request.headers } : {}),
    ...(request.cookies?.length ? { cookies: request.cookies } : {}),
    ...(request.user_agent ? { userAgent: request.user_agent } : {}),
    ...(request.http_auth ? { httpAuth: request.http_auth } : {}),
    ...(request.locale ? { locale: request.locale } : {}),
    ...(request.block_cookies ? { blockCookies: true } : {}),
    ...(request.wait_for_selectors?.length ? { waitForSelectors: request.wait_for_selectors } : {}),
  };
  return Object.keys(context).length > 1 ? context : undefined;
}

function basicAuth({ username, password }: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * The request's own headers and basic auth, lower-cased, for a request to `url`: on the target's
 * site only (nothing for third parties, nothing after a redirect off the site).
 */
export function siteHeadersFor(
  url: string,
  context: { targetUrl: string | undefined; headers?: Readonly<Record<string, string>>; httpAuth?: PageContext['httpAuth'] },
): Record<string, string> {
  if (!context.targetUrl || !isSameSite(url, context.targetUrl)) return {};
  const headers = Object.fromEntries(Object.entries(context.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  if (context.httpAuth) headers.authorization = basicAuth(context.httpAuth);
  return headers;
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/');
}

/**
 * The `Cookie` header a browser would send to `url` with the request's cookies set (RFC 6265:
 * a domain cookie on its domain and subdomains, a host-only one on the target's host, path
 * prefixes, secure ones over https only, expired ones never); undefined when none applies.
 */
export function cookieHeaderFor(url: string, context: Pick<PageContext, 'targetUrl' | 'cookies'>, nowSeconds: number): string | undefined {
  if (!context.cookies?.length) return undefined;
  let target: URL;
  let request: URL;
  try {
    target = new URL(context.targetUrl);
    request = new URL(url);
  } catch {
    return undefined;
  }
  const host = request.hostname.toLowerCase();
  const pairs = context.cookies
    .filter((cookie) => {
      if (cookie.expires !== undefined && cookie.expires > 0 && cookie.expires <= nowSeconds) return false;
      if (cookie.secure && request.protocol !== 'https:') return false;
      const domain = cookie.domain?.replace(/^\./, '');
      const onHost = domain ? host === domain || host.endsWith(`.${domain}`) : host === target.hostname.toLowerCase();
      return onHost && pathMatches(request.pathname || '/', cookie.path ?? '/');
    })
    .map((cookie) => `${cookie.name}=${cookie.value}`);
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}

/** A locale's language list: the tag, then its language (`de-CH,de`), as a browser's language setting holds it. */
export function languageListOf(locale: string): string {
  const language = locale.split('-')[0];
  return language && language !== locale ? `${locale},${language}` : locale;
}

/** Accept-Language for a locale: the tag, then its language (`de-CH,de;q=0.9`), as a browser sends it. */
export function acceptLanguageOf(locale: string): string {
  const language = locale.split('-')[0];
  return language && language !== locale ? `${locale},${language};q=0.9` : locale;
}
