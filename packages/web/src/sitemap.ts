/**
 * sitemap.xml discovery: url sets, sitemap indexes (followed, bounded) and plain-text sitemaps.
 * Best effort: a sitemap that cannot be fetched or read adds nothing and fails nothing.
 */
import type { SafeFetch } from './safe-fetch';

export interface ParsedSitemap {
  /** Page URLs (`<urlset>`). */
  urls: string[];
  /** Child sitemaps (`<sitemapindex>`). */
  sitemaps: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  if (cdata) return (cdata[1] ?? '').trim();
  return raw
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .trim();
}

function locsIn(xml: string, element: 'url' | 'sitemap', base: string): string[] {
  const found: string[] = [];
  const blocks = new RegExp(`<(?:[\\w-]+:)?${element}[\\s>][\\s\\S]*?</(?:[\\w-]+:)?${element}>`, 'gi');
  for (const block of xml.match(blocks) ?? []) {
    const loc = /<(?:[\w-]+:)?loc>([\s\S]*?)<\/(?:[\w-]+:)?loc>/i.exec(block);
    if (!loc?.[1]) continue;
    try {
      const url = new URL(decodeXmlText(loc[1]), base);
      if (url.protocol === 'http:' || url.protocol === 'https:') found.push(url.href);
    } catch {
      // Not a URL: skipped.
    }
  }
  return found;
}

export function parseSitemap(body: string, sitemapUrl: string): ParsedSitemap {
  if (/<(?:[\w-]+:)?(urlset|sitemapindex)[\s>]/i.test(body)) {
    return { urls: locsIn(body, 'url', sitemapUrl), sitemaps: locsIn(body, 'sitemap', sitemapUrl) };
  }
  // A text sitemap: one URL per line.
  const urls = body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\/\S+$/i.test(line));
  return { urls, sitemaps: [] };
}

export interface SitemapDiscoveryOptions {
  fetch: SafeFetch;
  signal?: AbortSignal;
  maxUrls?: number;
  /** Sitemap files fetched at most (indexes included). */
  maxSitemaps?: number;
  timeoutMs?: number;
}

/** Page URLs listed by the given sitemaps and the indexes they lead to, in file order. */
export async function discoverFromSitemaps(sitemapUrls: string[], options: SitemapDiscoveryOptions): Promise<string[]> {
  const maxUrls = options.maxUrls ?? 5000;
  const queue = [...sitemapUrls];
  const visited = new Set<string>();
  const urls = new Set<string>();
  while (queue.length > 0 && visited.size < (options.maxSitemaps ?? 10) && urls.size < maxUrls) {
    const next = queue.shift()!;
    if (visited.has(next)) continue;
    visited.add(next);
    let parsed: ParsedSitemap;
    try {
      const response = await options.fetch(next, {
        signal: options.signal,
        accept: 'application/xml,text/xml,text/plain;q=0.8,*/*;q=0.5',
        timeoutMs: options.timeoutMs ?? 15_000,
      });
      if (response.status < 200 || response.status >= 300) continue;
      parsed = parseSitemap(response.body, response.url);
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
