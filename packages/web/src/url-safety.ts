/**
 * The one rule deciding which addresses Sitelens may connect to: public unicast only, unless the
 * deployment allows private URLs. Used by safe fetch at connect time (so DNS rebinding cannot slip
 * through) and by the browser layer for every request a rendered page makes.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { AppError, BadRequest, UrlBlocked } from '@sitelens/contracts';

type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4 ranges that are not public unicast (IANA special-purpose registry), first match wins. */
const V4_BLOCKED: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (cloud metadata)'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

/** IPv6 ranges inside or next to global unicast (2000::/3) that are still not public. */
const V6_BLOCKED: ReadonlyArray<readonly [string, string]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'IETF protocol assignment'],
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

const parseCidrs = (list: ReadonlyArray<readonly [string, string]>) =>
  list.map(([cidr, label]) => ({ range: ipaddr.parseCIDR(cidr), label }));

interface RangeTables {
  v4: ReturnType<typeof parseCidrs>;
  v6: ReturnType<typeof parseCidrs>;
  nat64: [ipaddr.IPv6, number];
  sixToFour: [ipaddr.IPv6, number];
  globalUnicast: [ipaddr.IPv6, number];
}

// Parsed on first use so importing this module does no work.
let tables: RangeTables | undefined;
function rangeTables(): RangeTables {
  tables ??= {
    v4: parseCidrs(V4_BLOCKED),
    v6: parseCidrs(V6_BLOCKED),
    nat64: ipaddr.IPv6.parseCIDR('64:ff9b::/96'),
    sixToFour: ipaddr.IPv6.parseCIDR('2002::/16'),
    globalUnicast: ipaddr.IPv6.parseCIDR('2000::/3'),
  };
  return tables;
}

/**
 * Parses an IP literal the way URL parsers and `inet_aton` accept it: dotted, bracketed IPv6,
 * and the odd IPv4 spellings (decimal `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`,
 * short `127.1`). Returns null for anything that is a hostname.
 */
export function parseIpLiteral(host: string): Ip | null {
  let text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  if (ipaddr.IPv4.isValid(text)) return ipaddr.IPv4.parse(text);
  return null;
}

function v4Reason(ip: ipaddr.IPv4): string | null {
  for (const { range, label } of rangeTables().v4) {
    if (ip.match(range as [ipaddr.IPv4, number])) return label;
  }
  return null;
}

/** The IPv4 address carried inside an IPv6 one, for the forms that route to it. */
function embeddedV4(ip: ipaddr.IPv6): { v4: ipaddr.IPv4; via: string } | null {
  const p = ip.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.isIPv4MappedAddress()) return { v4: ip.toIPv4Address(), via: 'IPv4-mapped' };
  if (ip.match(rangeTables().nat64)) {
    return { v4: fromWords(p[6] ?? 0, p[7] ?? 0), via: 'NAT64' };
  }
  if (ip.match(rangeTables().sixToFour)) {
    return { v4: fromWords(p[1] ?? 0, p[2] ?? 0), via: '6to4' };
  }
  return null;
}

function v6Reason(ip: ipaddr.IPv6): string | null {
  const embedded = embeddedV4(ip);
  if (embedded) {
    const inner = v4Reason(embedded.v4);
    return inner ? `${inner} (${embedded.via})` : null;
  }
  for (const { range, label } of rangeTables().v6) {
    if (ip.match(range as [ipaddr.IPv6, number])) return label;
  }
  if (!ip.match(rangeTables().globalUnicast)) return 'reserved';
  return null;
}

/**
 * Why an address is refused ('loopback', 'private', 'link-local (cloud metadata)', ...), or null
 * when it is public unicast. Anything that does not parse as an IP is refused.
 */
export function blockedReason(address: string): string | null {
  const ip = parseIpLiteral(address);
  if (!ip) return 'not an IP address';
  return ip.kind() === 'ipv4' ? v4Reason(ip as ipaddr.IPv4) : v6Reason(ip as ipaddr.IPv6);
}

export function isBlockedAddress(address: string): boolean {
  return blockedReason(address) !== null;
}

/**
 * Decides which addresses are refused: a reason, or null to allow. The default is
 * `blockedReason` (public unicast only); tests narrow it to treat a local fixture as public.
 */
export type AddressPolicy = (address: string) => string | null;

export interface UrlCheckOptions {
  allowPrivate: boolean;
  policy?: AddressPolicy;
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
  checkHostSpelling(parsed.hostname, options.policy ?? blockedReason);
  return parsed;
}

/**
 * What the host's spelling alone decides: an IP literal (in any spelling) is refused by `policy`
 * or returned as its address; `localhost` names are refused; other names need DNS (undefined).
 */
function checkHostSpelling(hostname: string, policy: AddressPolicy): ResolvedAddress | undefined {
  const literal = parseIpLiteral(hostname);
  if (literal) {
    const address = literal.toString();
    const reason = policy(address);
    if (reason) throw new UrlBlocked(`${hostname} is a ${reason} address`);
    return { address, family: literal.kind() === 'ipv4' ? 4 : 6 };
  }
  if (isLocalhostName(hostname)) throw new UrlBlocked(`${hostname} is a loopback address`);
  return undefined;
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

function dnsFailure(hostname: string, error: unknown): AppError {
  const code = (error as { code?: string } | null)?.code;
  const transient = code === 'EAI_AGAIN' || code === 'ETIMEOUT';
  return new AppError('UPSTREAM_ERROR', `Could not resolve host ${hostname}${code ? ` (${code})` : ''}`, {
    retryable: transient,
    cause: error,
  });
}

/**
 * Resolves a host name and refuses it when any of its addresses is not public unicast (an
 * attacker may mix one internal address into an otherwise public answer). IP literals in any
 * spelling are checked without DNS. Throws UrlBlocked, or UPSTREAM_ERROR when resolution fails.
 */
export async function checkHostResolves(
  hostname: string,
  options: { resolve?: Resolver; policy?: AddressPolicy } = {},
): Promise<ResolvedAddress[]> {
  const policy = options.policy ?? blockedReason;
  const literal = checkHostSpelling(hostname, policy);
  if (literal) return [literal];
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(hostname);
  } catch (error) {
    throw dnsFailure(hostname, error);
  }
  if (addresses.length === 0) throw dnsFailure(hostname, Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' }));
  for (const { address } of addresses) {
    const reason = policy(address);
    if (reason) throw new UrlBlocked(`${hostname} resolves to a ${reason} address`);
  }
  return addresses;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` signature `net.connect` and undici's `connect` option expect. */
export type SafeLookup = (hostname: string, options: unknown, callback: LookupCallback) => void;

/**
 * A `dns.lookup` replacement for sockets: resolves, refuses blocked addresses (unless
 * `allowPrivate`), and answers in the shape the caller asked for (`all` or a single address).
 */
export function createSafeLookup(options: UrlCheckOptions & { resolve?: Resolver }): SafeLookup {
  const resolve = options.resolve ?? systemResolver;
  return (hostname, lookupOptions, callback) => {
    const opts = (typeof lookupOptions === 'object' && lookupOptions ? lookupOptions : {}) as {
      family?: number | string;
      all?: boolean;
    };
    const lookup = options.allowPrivate
      ? resolve(hostname).catch((error: unknown) => {
          throw dnsFailure(hostname, error);
        })
      : checkHostResolves(hostname, { resolve, policy: options.policy });
    lookup.then(
      (addresses) => {
        const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
        const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = usable[0];
        if (!first) {
          callback(dnsFailure(hostname, Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' })), '');
        } else if (opts.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: Error) => callback(error, ''),
    );
  };
}

/**
 * The hosted-mode rule for a browser: every URL a page requests must be http(s) and resolve to
 * public unicast addresses only. Resolves to allow, throws UrlBlocked to refuse.
 */
export function createUrlGuard(options: UrlCheckOptions & { resolve?: Resolver }): (url: string) => Promise<void> {
  return async (url) => {
    const parsed = assertPublicUrl(url, options);
    if (options.allowPrivate) return;
    await checkHostResolves(parsed.hostname, { resolve: options.resolve, policy: options.policy });
  };
}
