/**
 * Finds web addresses in free text: full URLs (`https://x.y/z?a=1`) and scheme-less ones
 * (`example.com/products`, `localhost:8080/a`). Scheme-less matches need a top-level domain from a
 * known list so file names (`README.md`, `data.json`) and abbreviations (`e.g.`) are not taken
 * for sites.
 */

/** Top-level domains accepted without a scheme: common generic ones and widely used country codes. */
const KNOWN_TLDS = new Set(
  (
    'com net org info biz edu gov mil int io co ai dev app me tv cc us uk de fr es it nl be at ch se no dk fi ' +
    'pl pt ie eu ca au nz jp cn kr tw hk sg in id my th vn ph br mx ar cl pe ru ua cz sk hu ro gr tr il ' +
    'za ng ke eg ae sa is lt lv ee si hr rs bg lu xyz site online store shop blog tech news cloud page ' +
    'wiki link live life world space website digital media agency studio design email global network ' +
    'services solutions software systems support tools top club pro ly gg fm to so im la ac'
  ).split(/\s+/),
);

const WITH_SCHEME = /\bhttps?:\/\/[^\s<>"'`]+/gi;

// A dotted host ending in an alphabetic label (checked against KNOWN_TLDS), `localhost` or an IPv4
// address, then an optional port and path. The look-behind keeps e-mail addresses and the middle
// of longer tokens out; the look-ahead stops a host from ending inside a longer word.
const WITHOUT_SCHEME =
  /(?<![\w@.\-/:])(?:((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,24}))|(localhost)|(\d{1,3}(?:\.\d{1,3}){3}))(?![\w-]|\.\d)(:\d{2,5})?(\/[^\s<>"'`]*)?/gi;

const TRAILING_PUNCTUATION = /[.,;:!?'"*_~]$/;

/** Drops sentence punctuation and unbalanced closing brackets from the end of a match. */
function trimTrailing(candidate: string): string {
  let value = candidate;
  for (;;) {
    if (TRAILING_PUNCTUATION.test(value)) {
      value = value.slice(0, -1);
      continue;
    }
    const last = value.at(-1);
    const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
    const open = last === undefined ? undefined : pairs[last];
    if (open !== undefined && count(value, last as string) > count(value, open)) {
      value = value.slice(0, -1);
      continue;
    }
    return value;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function normalise(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!url.hostname) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

interface BareHost {
  domain?: string;
  tld?: string;
  localhost?: string;
  ip?: string;
  port?: string;
  path?: string;
}

/** Whether a scheme-less match is an address rather than a file name, a version or a word. */
function acceptsBareHost(host: BareHost): boolean {
  if (host.domain !== undefined) return KNOWN_TLDS.has((host.tld ?? '').toLowerCase());
  // "localhost" alone is a word in a sentence; with a port or path it is an address.
  if (host.localhost !== undefined) return host.port !== undefined || host.path !== undefined;
  return (host.ip ?? '').split('.').every((octet) => Number(octet) <= 255);
}

export interface FoundUrls {
  urls: string[];
  /** The text with every found address blanked out, for keyword scans that must not see URLs. */
  rest: string;
}

/**
 * Every http(s) address in `text`, normalised (`new URL().href`), deduplicated, in order of
 * appearance. Scheme-less public hosts get `https://`; `localhost` and IPv4 hosts get `http://`
 * because local servers rarely speak TLS.
 */
export function findUrls(text: string): FoundUrls {
  const found: { index: number; href: string }[] = [];
  let rest = text;

  const blank = (index: number, length: number) => {
    rest = rest.slice(0, index) + ' '.repeat(length) + rest.slice(index + length);
  };

  for (const match of text.matchAll(WITH_SCHEME)) {
    const trimmed = trimTrailing(match[0]);
    const href = normalise(trimmed);
    if (href) found.push({ index: match.index, href });
    blank(match.index, match[0].length);
  }

  for (const match of rest.matchAll(WITHOUT_SCHEME)) {
    const [whole, domain, tld, localhost, ip, port, path] = match;
    if (!acceptsBareHost({ domain, tld, localhost, ip, port, path })) continue;
    const scheme = domain === undefined ? 'http' : 'https';
    const href = normalise(`${scheme}://${trimTrailing(whole)}`);
    if (href) found.push({ index: match.index, href });
    blank(match.index, whole.length);
  }

  found.sort((a, b) => a.index - b.index);
  const urls = [...new Set(found.map((entry) => entry.href))];
  return { urls, rest };
}
