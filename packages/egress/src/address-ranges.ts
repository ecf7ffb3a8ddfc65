/**
 * Which IP addresses are public unicast: the IANA special-purpose ranges, and the IPv6 forms that
 * carry an IPv4 address inside. Pure functions over address text; no DNS.
 */
import ipaddr from 'ipaddr.js';

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
