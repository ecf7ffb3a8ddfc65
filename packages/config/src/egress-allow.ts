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

function asCidr(entry: string): string | undefined {
  const text = entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
  if (ipaddr.isValidCIDR(text)) {
    const [address, bits] = ipaddr.parseCIDR(text);
    return `${address.toString()}/${bits}`;
  }
  if (ipaddr.isValid(text) && (ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text))) {
    const address = ipaddr.parse(text);
    return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
  }
  return undefined;
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
      return { error: `"${entry}" is neither a CIDR (10.0.0.0/8, fd00::/8), an IP address, a host name nor *.domain` };
    }
    if (wildcard) allow.suffixes.push(`.${name}`);
    else allow.hosts.push(name);
  }
  return { allow };
}
