/**
 * sitemap.xml discovery: url sets, sitemap indexes (followed, bounded) and plain-text sitemaps.
 * Best effort: a sitemap that cannot be fetched or read adds nothing and fails nothing.
 */
import { decompress } from './decode-body';
import { SaxesParser } from 'saxes';
import type { SafeFetch } from './safe-fetch';

export interface ParsedSitemap {
  /** Page URLs (`<urlset>`). */
  urls: string[];
  /** Child sitemaps (`<sitemapindex>`). */
  sitemaps: string[];
}

/** Bytes of one sitemap file read at most (the sitemaps protocol allows 50 MB; few come near). */
export const MAX_SITEMAP_BYTES = 5 * 1024 * 1024;
/** URLs taken from one sitemap file at most (the protocol's own limit). */
export const MAX_SITEMAP_URLS = 50_000;
/** Characters fed to the XML parser at a time: parsing stops between chunks once the cap is met. */
const CHUNK = 64 * 1024;

function absoluteHttp(raw: string, base: string): string | undefined {
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();

/**
 * Reads `<loc>`s of `<url>` and `<sitemap>` entries with a streaming XML parser (saxes): one pass,
 * linear in the file whatever its shape (a file of unclosed `<url>` tags included), no entity
 * expansion beyond XML's own. Malformed XML is read as far as it goes; parsing stops once `maxUrls`
 * entries are found.
 */
function parseXmlSitemap(body: string, base: string, maxUrls: number): ParsedSitemap {
  const parsed: ParsedSitemap = { urls: [], sitemaps: [] };
  const parser = new SaxesParser({ xmlns: false, position: false });
  const open: string[] = [];
  let loc: string | undefined;
  parser.on('error', () => undefined);
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (name === 'loc' && (open.at(-1) === 'url' || open.at(-1) === 'sitemap')) loc = '';
    if (!tag.isSelfClosing) open.push(name);
  });
  parser.on('text', (text) => {
    if (loc !== undefined) loc += text;
  });
  parser.on('cdata', (text) => {
    if (loc !== undefined) loc += text;
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (localName(tag.name) !== 'loc' || loc === undefined) return;
    const url = absoluteHttp(loc, base);
    loc = undefined;
    if (url === undefined) return;
    (open.at(-1) === 'sitemap' ? parsed.sitemaps : parsed.urls).push(url);
  });
  for (let at = 0; at < body.length && parsed.urls.length + parsed.sitemaps.length < maxUrls; at += CHUNK) {
    parser.write(body.slice(at, at + CHUNK));
  }
  parsed.urls = parsed.urls.slice(0, maxUrls);
  parsed.sitemaps = parsed.sitemaps.slice(0, maxUrls - parsed.urls.length);
  return parsed;
}

/** A sitemap file: XML (`<urlset>`, `<sitemapindex>`) or text, one URL per line. At most `maxUrls` entries. */
export function parseSitemap(body: string, sitemapUrl: string, maxUrls = MAX_SITEMAP_URLS): ParsedSitemap {
  if (/<(?:[\w-]{1,64}:)?(urlset|sitemapindex)[\s>]/i.test(body)) return parseXmlSitemap(body, sitemapUrl, maxUrls);
  const urls: string[] = [];
  for (const line of body.split('\n', maxUrls * 4)) {
    const text = line.trim();
    if (/^https?:\/\/\S+$/i.test(text)) urls.push(text);
    if (urls.length >= maxUrls) break;
  }
  return { urls, sitemaps: [] };
}

/** The sitemaps of a site: what robots.txt declares, else its /sitemap.xml. */
export function sitemapLocations(startUrl: string, declared: readonly string[] | undefined): string[] {
  return declared && declared.length > 0 ? [...declared] : [new URL('/sitemap.xml', startUrl).href];
}

export interface SitemapDiscoveryOptions {
  fetch: SafeFetch;
  signal?: AbortSignal;
  maxUrls?: number;
  /** Sitemap files fetched at most (indexes included). */
  maxSitemaps?: number;
  timeoutMs?: number;
  /** Epoch ms: no sitemap is fetched past it, and none takes longer; the URLs found so far are the answer. */
  deadline?: number;
}

const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip', 'application/octet-stream', 'binary/octet-stream', '']);

/** A gzipped sitemap file: a gzip type, or a generic binary named *.gz. */
function isGzipFile(contentType: string, url: string): boolean {
  if (contentType === 'application/gzip' || contentType === 'application/x-gzip') return true;
  return GZIP_TYPES.has(contentType) && /\.gz$/i.test(new URL(url).pathname);
}

/** Page URLs listed by the given sitemaps and the indexes they lead to, in file order. */
export async function discoverFromSitemaps(sitemapUrls: string[], options: SitemapDiscoveryOptions): Promise<string[]> {
  const maxUrls = options.maxUrls ?? 5000;
  const queue = [...sitemapUrls];
  const visited = new Set<string>();
  const urls = new Set<string>();
  const left = () => (options.deadline === undefined ? Number.POSITIVE_INFINITY : options.deadline - Date.now());
  while (queue.length > 0 && visited.size < (options.maxSitemaps ?? 10) && urls.size < maxUrls && left() > 0) {
    const next = queue.shift()!;
    if (visited.has(next)) continue;
    visited.add(next);
    let parsed: ParsedSitemap;
    try {
      const response = await options.fetch(next, {
        signal: options.signal,
        accept: 'application/xml,text/xml,text/plain;q=0.8,*/*;q=0.5',
        timeoutMs: Math.max(1, Math.min(options.timeoutMs ?? 15_000, left())),
        maxBytes: MAX_SITEMAP_BYTES,
        // A gzipped sitemap file (sitemap-2.xml.gz) comes as a binary, not as Content-Encoding.
        binary: isGzipFile,
        binaryMaxBytes: MAX_SITEMAP_BYTES,
      });
      if (response.status < 200 || response.status >= 300) continue;
      // Gunzipped only when still gzip: a server may also have sent it with Content-Encoding: gzip.
      const bytes = response.bytes;
      const gzipped = bytes !== undefined && bytes[0] === 0x1f && bytes[1] === 0x8b;
      const body = bytes ? (gzipped ? await decompress(bytes, 'gzip', MAX_SITEMAP_BYTES) : bytes).toString('utf8') : response.body;
      parsed = parseSitemap(body, response.url, Math.min(MAX_SITEMAP_URLS, maxUrls - urls.size));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      continue;
    }
    for (const url of parsed.urls) {
      if (urls.size >= maxUrls) break;
      urls.add(url);
    }
    queue.push(...parsed.sitemaps);
  }
  return [...urls];
}
