/**
 * Which URLs a crawl may visit: http(s) only, the start host (and its subdomains when asked),
 * path globs (matched in linear time, see `path-glob`) when given, none of the excluded globs,
 * and no static assets (PDF and DOCX documents are read like pages).
 */
import { compilePathGlobs } from './path-glob';

const ASSET =
  /\.(jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|zip|gz|tgz|bz2|xz|rar|7z|tar|mp3|mp4|m4a|wav|ogg|webm|mov|avi|mkv|css|js|mjs|json|rss|atom|woff2?|ttf|otf|eot|exe|dmg|apk|msi|iso|bin|csv|xlsx?|doc|pptx?)$/i;

export interface CrawlScopeOptions {
  includeSubdomains?: boolean;
  patterns?: string[];
  /** Path globs a discovered page must not match (they win over `patterns`). */
  excludePatterns?: string[];
}

/** Globs as given, trimmed; "blog/*" means "/blog/*" (paths always start with a slash). */
function compileGlobs(patterns: readonly string[] | undefined): ((path: string) => boolean) | undefined {
  const globs = (patterns ?? [])
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (/^[\w.-]/.test(p) && !/^https?:/i.test(p) ? `/${p}` : p));
  return globs.length > 0 ? compilePathGlobs(globs) : undefined;
}

export class CrawlScope {
  private readonly hosts = new Set<string>();
  private readonly matchPath: ((path: string) => boolean) | undefined;
  private readonly excludedPath: ((path: string) => boolean) | undefined;

  constructor(
    startUrl: string,
    private readonly options: CrawlScopeOptions = {},
  ) {
    this.addHost(new URL(startUrl).hostname);
    this.matchPath = compileGlobs(options.patterns);
    this.excludedPath = compileGlobs(options.excludePatterns);
  }

  /** Also accept the host a start page redirected to (example.com -> www.example.com). */
  addHost(hostname: string): void {
    const host = hostname.toLowerCase();
    this.hosts.add(host);
    if (this.options.includeSubdomains) this.hosts.add(host.replace(/^www\./, ''));
  }

  /** Same site: http(s), one of the crawl's hosts (or a subdomain of one, when allowed), not an asset. */
  contains(url: string): boolean {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    if (ASSET.test(parsed.pathname)) return false;
    const host = parsed.hostname.toLowerCase();
    if (this.hosts.has(host)) return true;
    if (!this.options.includeSubdomains) return false;
    for (const base of this.hosts) if (host.endsWith(`.${base}`)) return true;
    return false;
  }

  /** Whether a discovered page may be followed (the patterns, when any, match its path; no excluded one does). */
  follows(url: string): boolean {
    if (!this.contains(url)) return false;
    const path = new URL(url).pathname;
    if (this.excludedPath?.(path)) return false;
    return this.matchPath ? this.matchPath(path) : true;
  }
}
