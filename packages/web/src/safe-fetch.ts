/**
 * Fetching a page from the open web without letting it reach inside: every connection's
 * addresses are checked when the socket opens (DNS rebinding safe), every redirect hop is checked
 * again, and time and size are bounded. Failures become the service's error codes; an HTTP error
 * status is not a failure here, callers decide what a 404 means.
 */
import { Agent, request, errors as undiciErrors } from 'undici';
import {
  AppError,
  TimeoutError,
  acceptLanguageOf,
  cookieHeaderFor,
  errorMessage,
  isAppError,
  siteHeadersFor,
  type PageContext,
} from '@sitelens/contracts';
import { assertPublicUrl, createSafeLookup, type Resolver, type UrlCheckOptions } from '@sitelens/egress';
import { decodeText, decompress, tooLarge } from './decode-body';

export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; Sitelens/0.1; self-hosted web capture)';
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';

export interface FetchPageOptions {
  signal?: AbortSignal;
  /** Total budget for all hops and the body, in ms. */
  timeoutMs?: number;
  maxBytes?: number;
  accept?: string;
  /** Called before each redirect hop is followed; throw to refuse it (robots rules, scope). */
  beforeRedirect?: (next: string) => void | Promise<void>;
  /**
   * The request's page context: its user agent and language on every hop; its headers, basic auth
   * and cookies only on hops to the target's own site.
   */
  context?: PageContext;
  /** Downloads the body of these binary types too (documents), up to `binaryMaxBytes`, into `bytes`. */
  binary?: (contentType: string, url: string) => boolean;
  /** Cap on a binary body (default: `maxBytes`); past it the fetch fails PAYLOAD_TOO_LARGE naming DOCUMENT_MAX_BYTES. */
  binaryMaxBytes?: number;
}

/** The headers of one hop: ours, then the page context's (theirs win where both set one). */
function hopHeaders(url: string, base: Record<string, string>, context: PageContext | undefined): Record<string, string> {
  if (!context) return base;
  const headers = { ...base };
  if (context.userAgent) headers['user-agent'] = context.userAgent;
  if (context.locale) headers['accept-language'] = acceptLanguageOf(context.locale);
  Object.assign(headers, siteHeadersFor(url, context));
  const cookie = cookieHeaderFor(url, context, Date.now() / 1000);
  if (cookie) headers.cookie = cookie;
  return headers;
}

export interface FetchedPage {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Media type without parameters, lowercased ('' when the server sent none). */
  contentType: string;
  /** Decoded text for textual types; '' for binary types, which are not downloaded unless asked. */
  body: string;
  /** The body of a binary type the caller asked for (`binary`). */
  bytes?: Buffer;
  /** The URLs that answered with a redirect, in order. */
  redirects: string[];
}

/** The one function everything in this package fetches through; injectable for tests. */
export type SafeFetch = (url: string, options?: FetchPageOptions) => Promise<FetchedPage>;

/** The URL policy (`allowPrivate`, EGRESS_ALLOW, the refusal log) and the fetcher's own bounds. */
export interface SafeFetcherOptions extends UrlCheckOptions {
  userAgent?: string;
  connectTimeoutMs?: number;
  /** Default total timeout per fetch (all hops and the body). */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Connections kept per origin. */
  connectionsPerOrigin?: number;
  /** Name resolution (the system resolver by default); tests give names to the fixture site. */
  resolve?: Resolver;
}

export interface SafeFetcher {
  fetch: SafeFetch;
  close(): Promise<void>;
}

function isTextual(contentType: string): boolean {
  return (
    contentType === '' ||
    contentType.startsWith('text/') ||
    /^application\/(xhtml\+xml|xml|json|javascript|ld\+json|rss\+xml|atom\+xml)$/.test(contentType) ||
    contentType.endsWith('+xml') ||
    contentType.endsWith('+json')
  );
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

type Body = AsyncIterable<Buffer | Uint8Array> & {
  destroy(error?: Error): unknown;
  on(event: 'error', listener: () => void): unknown;
};

/** Stops reading a body; undici reports the abort as an error nobody needs to hear. */
function discard(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Body, maxBytes: number, declaredLength: string | undefined): Promise<Buffer> {
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) {
    discard(body);
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) {
      discard(body);
      throw tooLarge(maxBytes);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, total);
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ETIMEDOUT']);

/** Maps whatever undici, the resolver or the socket threw to the service's errors. */
function toAppError(error: unknown, url: string, timedOut: boolean, timeoutMs: number): unknown {
  if (isAppError(error)) return error;
  if (timedOut) return new TimeoutError(`Timed out after ${timeoutMs} ms fetching ${url}`, { cause: error });
  if (
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  ) {
    return new TimeoutError(`Timed out fetching ${url}`, { cause: error });
  }
  const code = (error as { code?: string } | null)?.code ?? '';
  // undici reports socket errors through a wrapper whose cause holds the real one.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (isAppError(cause)) return cause;
  const causeCode = (cause as { code?: string } | null)?.code ?? '';
  if (code === 'ENOTFOUND' || causeCode === 'ENOTFOUND') {
    return new AppError('UPSTREAM_ERROR', `Could not resolve host ${new URL(url).hostname}`, { cause: error });
  }
  const connectCode = CONNECT_CODES.has(code) ? code : CONNECT_CODES.has(causeCode) ? causeCode : '';
  if (connectCode || code.startsWith('UND_ERR_SOCKET') || /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO)/.test(code)) {
    return new AppError('UPSTREAM_ERROR', `Could not connect to ${new URL(url).host} (${connectCode || code})`, {
      retryable: true,
      cause: error,
    });
  }
  const message = errorMessage(error);
  return new AppError('UPSTREAM_ERROR', `Fetching ${url} failed: ${message}`, { retryable: true, cause: error });
}

/**
 * One connection pool with the address check built in. Create it once per worker (or per crawl)
 * and close it when done.
 */
export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const defaultTimeout = options.timeoutMs ?? 30_000;
  const defaultMaxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 10;
  const agent = new Agent({
    connect: {
      timeout: options.connectTimeoutMs ?? 10_000,
      lookup: createSafeLookup(options),
    },
    connections: options.connectionsPerOrigin ?? 8,
    keepAliveTimeout: 4_000,
  });

  const fetchPage: SafeFetch = async (url, fetchOptions = {}) => {
    const timeoutMs = fetchOptions.timeoutMs ?? defaultTimeout;
    const maxBytes = fetchOptions.maxBytes ?? defaultMaxBytes;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = fetchOptions.signal ? AbortSignal.any([fetchOptions.signal, deadline]) : deadline;
    const redirects: string[] = [];
    let current = assertPublicUrl(url, options).href;
    try {
      for (;;) {
        const response = await request(current, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: hopHeaders(
            current,
            {
              'user-agent': userAgent,
              accept: fetchOptions.accept ?? DEFAULT_ACCEPT,
              'accept-encoding': 'gzip, deflate, br',
              'accept-language': 'en-US,en;q=0.8,*;q=0.5',
            },
            fetchOptions.context,
          ),
        });
        const headers = flattenHeaders(response.headers);
        const location = headers.location;
        if (REDIRECT_STATUSES.has(response.statusCode) && location) {
          await response.body.dump().catch(() => undefined);
          if (redirects.length >= maxRedirects) {
            throw new AppError('UPSTREAM_ERROR', `Too many redirects (more than ${maxRedirects}) from ${url}`);
          }
          redirects.push(current);
          let next: string;
          try {
            next = new URL(location, current).href;
          } catch {
            throw new AppError('UPSTREAM_ERROR', `Invalid redirect target from ${current}`);
          }
          current = assertPublicUrl(next, options).href;
          await fetchOptions.beforeRedirect?.(current);
          continue;
        }
        const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        let body = '';
        if (fetchOptions.binary?.(contentType, current)) {
          const cap = fetchOptions.binaryMaxBytes ?? maxBytes;
          const documentTooLarge = () =>
            new AppError('PAYLOAD_TOO_LARGE', `The document at ${current} is larger than ${cap} bytes (DOCUMENT_MAX_BYTES)`);
          let raw: Buffer;
          try {
            raw = await readCapped(response.body, cap, headers['content-length']);
          } catch (error) {
            throw isAppError(error) && error.code === 'PAYLOAD_TOO_LARGE' ? documentTooLarge() : error;
          }
          const bytes = await decompress(raw, headers['content-encoding'], cap).catch((error: unknown) => {
            throw isAppError(error) && error.code === 'PAYLOAD_TOO_LARGE' ? documentTooLarge() : error;
          });
          return { url: current, status: response.statusCode, headers, contentType, body, bytes, redirects };
        }
        if (isTextual(contentType)) {
          const raw = await readCapped(response.body, maxBytes, headers['content-length']);
          const bytes = await decompress(raw, headers['content-encoding'], maxBytes);
          body = decodeText(bytes, headers['content-type']).text;
        } else {
          discard(response.body);
        }
        return { url: current, status: response.statusCode, headers, contentType, body, redirects };
      }
    } catch (error) {
      if (fetchOptions.signal?.aborted) throw fetchOptions.signal.reason;
      throw toAppError(error, current, deadline.aborted, timeoutMs);
    }
  };

  return { fetch: fetchPage, close: () => agent.close() };
}
