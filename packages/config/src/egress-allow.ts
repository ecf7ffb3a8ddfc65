import ipaddr from 'ipaddr.js';

/**
 * What hosted mode may reach although it is not public (EGRESS_ALLOW): address ranges, exact host
 * names, and `*.suffix` patterns for every name under a domain.
 */
export interface EgressAllow {
  /** Normalised CIDRs (`10.1.0.0/16`, `fd00::/8`); a bare address is a /32 or /128. */
  cidrs: string[];
  /** Lower-cased host names, exact. */
  hosts: string[];
  /** Lower-cased domain suffixes with their leading dot (`*.corp.example` -> `.corp.example`). */
  suffixes: string[];
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** An address as operators write them: dotted quad IPv4 or IPv6 (not `10`, `0x7f000001` or `127.1`). */
function plainAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) {
    const v6 = ipaddr.IPv6.parse(text);
    // An IPv4-mapped entry means its IPv4 address, which is how the policy compares them.
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  }
  return undefined;
}

/**
 * A CIDR or a single address, normalised; undefined for anything else. Short or odd IPv4
 * spellings are refused (ipaddr.js reads `10/8` as 0.0.0.10/8, which would open 0.0.0.0/8), and so
 * are ranges with host bits set (`10.1.2.3/8` is almost always a typo).
 */
function asCidr(entry: string): string | undefined {
  const text = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
  const slash = text.indexOf('/');
  const address = plainAddress(slash < 0 ? text : text.slice(0, slash));
  if (!address) return undefined;
  const full = address.kind() === 'ipv4' ? 32 : 128;
  let bits = full;
  if (slash >= 0) {
    const suffix = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(suffix)) return undefined;
    bits = Number(suffix) - (text.includes('.') && address.kind() === 'ipv4' && text.includes(':') ? 96 : 0);
    if (bits < 0 || bits > full) return undefined;
  }
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  if (network.toString() !== address.toString()) return undefined;
  return `${address.toString()}/${bits}`;
}

/** Parses `EGRESS_ALLOW`; a bad entry is an error naming it (the value is operator config, not a secret). */
export function parseEgressAllow(text: string | undefined): { allow: EgressAllow } | { error: string } {
  const allow: EgressAllow = { cidrs: [], hosts: [], suffixes: [] };
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    const cidr = asCidr(entry);
    if (cidr) {
      allow.cidrs.push(cidr);
      continue;
    }
    const wildcard = entry.startsWith('*.');
    const name = (wildcard ? entry.slice(2) : entry).replace(/\.$/, '');
    if (!HOST_NAME.test(name) || /^[0-9.]+$/.test(name)) {
      return {
        error: `"${entry}" is neither a CIDR (10.0.0.0/8, fd00::/8; no host bits set), an IP address, a host name nor *.domain`,
      };
    }
    if (wildcard) allow.suffixes.push(`.${name}`);
    else allow.hosts.push(name);
  }
  return { allow };
}
