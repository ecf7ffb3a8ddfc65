/**
 * The one rule deciding which addresses Sitelens may connect to: public unicast only, unless the
 * deployment allows private URLs (local mode) or lists a range or a name in EGRESS_ALLOW. Safe
 * fetch applies it when a socket opens, the browser's egress proxy for every connection Chromium
 * makes, and the gateway to the URLs a request names; so DNS rebinding cannot slip between a check
 * and a connection, and every refusal reads the same.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { AppError, BadRequest, URL_BLOCKED_MESSAGE, UrlBlocked } from '@sitelens/contracts';
import { blockedReason, parseIpLiteral } from './address-ranges';

/**
 * Decides which addresses are refused: a reason, or null to allow. The default is
 * `blockedReason` (public unicast only).
 */
export type AddressPolicy = (address: string) => string | null;

/** EGRESS_ALLOW, as the config parsed it: ranges, exact names and `.suffix`es reachable although private. */
export interface EgressAllowList {
  cidrs: readonly string[];
  hosts: readonly string[];
  suffixes: readonly string[];
}

export interface RefusalDetail {
  host: string;
  reason: string;
}

export interface UrlCheckOptions {
  /** Local mode: every address may be reached, nothing is checked but the scheme. */
  allowPrivate: boolean;
  /** What may be reached although private (EGRESS_ALLOW). */
  allow?: EgressAllowList;
  /** Replaces `blockedReason` as the base rule (the allow list still applies on top). */
  policy?: AddressPolicy;
  /** Hears the reason of each refusal, for the log; the client only sees URL_BLOCKED_MESSAGE. */
  onRefused?: (detail: RefusalDetail) => void;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, injectable so tests can give names to the local fixture site. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const compiledRanges = new WeakMap<EgressAllowList, Range[]>();

function allowedRanges(allow: EgressAllowList | undefined): Range[] {
  if (!allow || allow.cidrs.length === 0) return [];
  let ranges = compiledRanges.get(allow);
  if (!ranges) {
    ranges = allow.cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
    compiledRanges.set(allow, ranges);
  }
  return ranges;
}

function isAllowedName(hostname: string, allow: EgressAllowList | undefined): boolean {
  if (!allow) return false;
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return allow.hosts.includes(name) || allow.suffixes.some((suffix) => name.endsWith(suffix));
}

/** The base rule with EGRESS_ALLOW's ranges let through. */
function addressPolicy(options: UrlCheckOptions): AddressPolicy {
  const base = options.policy ?? blockedReason;
  const ranges = allowedRanges(options.allow);
  if (ranges.length === 0) return base;
  return (address) => {
    const ip = parseIpLiteral(address);
    if (!ip) return base(address);
    const plain = ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
    const allowed = ranges.some(([range, bits]) => range.kind() === plain.kind() && plain.match(range as never, bits));
    return allowed ? null : base(address);
  };
}

/**
 * For a name EGRESS_ALLOW lists: private ranges pass (that is what listing it is for), but never
 * loopback, link-local (cloud metadata) or "this network", unless a listed range covers them: a
 * public record such as `localhost.corp.example -> 127.0.0.1` must not open the machine itself.
 */
const NEVER_BY_NAME = /^(loopback|link-local|unspecified)/;
function namedHostPolicy(options: UrlCheckOptions): AddressPolicy {
  const ranges = addressPolicy(options);
  return (address) => {
    const reason = (options.policy ?? blockedReason)(address);
    return reason !== null && NEVER_BY_NAME.test(reason) ? ranges(address) : null;
  };
}

function refuse(options: UrlCheckOptions, host: string, reason: string, cause?: unknown): UrlBlocked {
  options.onRefused?.({ host, reason });
  return new UrlBlocked(URL_BLOCKED_MESSAGE, { cause: cause ?? new Error(`${host}: ${reason}`) });
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Checks what can be checked without DNS: the URL parses, its scheme is http/https, and (unless
 * private URLs are allowed) its host is neither a blocked IP literal nor a localhost name.
 * Host names are checked again at connect time, on the addresses they resolve to.
 */
export function assertPublicUrl(url: string | URL, options: UrlCheckOptions): URL {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new BadRequest(`Invalid URL: ${String(url).slice(0, 200)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UrlBlocked(`Only http and https URLs are allowed, not ${parsed.protocol.replace(/:$/, '')}`);
  }
  if (options.allowPrivate) return parsed;
  checkHostSpelling(parsed.hostname, options);
  return parsed;
}

/**
 * What the host's spelling alone decides: an IP literal (in any spelling) is refused by the
 * policy or returned as its address; `localhost` names are refused; names in EGRESS_ALLOW pass;
 * other names need DNS (undefined).
 */
function checkHostSpelling(hostname: string, options: UrlCheckOptions): ResolvedAddress | 'allowed' | undefined {
  const literal = parseIpLiteral(hostname);
  if (literal) {
    const address = literal.toString();
    const reason = addressPolicy(options)(address);
    if (reason) throw refuse(options, hostname, `a ${reason} address`);
    return { address, family: literal.kind() === 'ipv4' ? 4 : 6 };
  }
  if (isAllowedName(hostname, options.allow)) return 'allowed';
  if (isLocalhostName(hostname)) throw refuse(options, hostname, 'a loopback name');
  return undefined;
}

function dnsFailure(hostname: string, error: unknown): AppError {
  const code = (error as { code?: string } | null)?.code;
  const transient = code === 'EAI_AGAIN' || code === 'ETIMEOUT';
  return new AppError('UPSTREAM_ERROR', `Could not resolve host ${hostname}${code ? ` (${code})` : ''}`, {
    retryable: transient,
    cause: error,
  });
}

const noAddresses = () => Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' });

/**
 * Resolves a host name and returns the addresses a connection may use. Unless private URLs are
 * allowed, a name is refused when any of its addresses is blocked (an attacker may mix one
 * internal address into an otherwise public answer) and when it does not resolve at all; IP
 * literals in any spelling are checked without DNS. Refusals are UrlBlocked with one message;
 * with private URLs allowed, a failed lookup is UPSTREAM_ERROR.
 */
export async function checkHostResolves(hostname: string, options: UrlCheckOptions & { resolve?: Resolver }): Promise<ResolvedAddress[]> {
  const resolve = options.resolve ?? systemResolver;
  const spelled = options.allowPrivate ? undefined : checkHostSpelling(hostname, options);
  if (spelled && spelled !== 'allowed') return [spelled];
  const literal = parseIpLiteral(hostname);
  if (literal) return [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }];
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
    if (addresses.length === 0) throw noAddresses();
  } catch (error) {
    if (options.allowPrivate || spelled === 'allowed') throw dnsFailure(hostname, error);
    const code = (error as { code?: string } | null)?.code ?? 'no answer';
    throw refuse(options, hostname, `does not resolve (${code})`, error);
  }
  if (options.allowPrivate) return addresses;
  const policy = spelled === 'allowed' ? namedHostPolicy(options) : addressPolicy(options);
  for (const { address } of addresses) {
    const reason = policy(address);
    if (reason) throw refuse(options, hostname, `resolves to ${address}, a ${reason} address`);
  }
  return addresses;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` signature `net.connect` and undici's `connect` option expect. */
export type SafeLookup = (hostname: string, options: unknown, callback: LookupCallback) => void;

/** Answers a socket's lookup from addresses already decided, in the shape it asked for. */
export function answerLookup(
  hostname: string,
  addresses: readonly ResolvedAddress[],
  lookupOptions: unknown,
  callback: LookupCallback,
): void {
  const opts = (typeof lookupOptions === 'object' && lookupOptions ? lookupOptions : {}) as { family?: number | string; all?: boolean };
  const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
  const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : [...addresses];
  const first = usable[0];
  if (!first) callback(dnsFailure(hostname, noAddresses()), '');
  else if (opts.all) callback(null, usable);
  else callback(null, first.address, first.family);
}

/**
 * A `dns.lookup` replacement for sockets: resolves, refuses blocked addresses (unless
 * `allowPrivate`), and answers in the shape the caller asked for (`all` or a single address).
 */
export function createSafeLookup(options: UrlCheckOptions & { resolve?: Resolver }): SafeLookup {
  return (hostname, lookupOptions, callback) => {
    checkHostResolves(hostname, options).then(
      (addresses) => answerLookup(hostname, addresses, lookupOptions, callback),
      (error: Error) => callback(error, ''),
    );
  };
}

/**
 * The hosted-mode rule for a URL: http(s), and resolving to addresses the policy allows. Resolves
 * to allow, throws UrlBlocked to refuse.
 */
export function createUrlGuard(options: UrlCheckOptions & { resolve?: Resolver }): (url: string) => Promise<void> {
  return async (url) => {
    const parsed = assertPublicUrl(url, options);
    if (options.allowPrivate) return;
    await checkHostResolves(parsed.hostname, options);
  };
}
