/**
 * robots.txt, fetched through safe fetch and cached per origin. Follows RFC 9309: a missing
 * file (4xx) allows everything, an unreachable one (5xx, network failure) disallows everything.
 */
import { AppError, isAppError } from '@sitelens/contracts';
import { MAX_ROBOTS_BYTES, readRobots, robotsAllow } from './robots-rules';
import type { SafeFetch } from './safe-fetch';

export const ROBOTS_USER_AGENT = 'Sitelens';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay for our user agent (or `*`), in ms. */
  crawlDelayMs: number | undefined;
  /** `Sitemap:` lines, absolute. */
  sitemaps: string[];
  /** Why robots.txt could not be read, when that is why everything is disallowed. */
  unavailable?: AppError;
}

const allowAll: RobotsRules = { isAllowed: () => true, crawlDelayMs: undefined, sitemaps: [] };
const disallowAll = (unavailable: AppError): RobotsRules => ({
  isAllowed: () => false,
  crawlDelayMs: undefined,
  sitemaps: [],
  unavailable,
});

export function parseRobots(robotsUrl: string, body: string, userAgent = ROBOTS_USER_AGENT): RobotsRules {
  const parsed = readRobots(body, userAgent);
  const origin = new URL(robotsUrl).origin;
  const sitemaps: string[] = [];
  for (const entry of parsed.sitemaps) {
    try {
      sitemaps.push(new URL(entry, robotsUrl).href);
    } catch {
      // An unusable Sitemap line is ignored, as crawlers do.
    }
  }
  const delay = parsed.crawlDelaySeconds;
  return {
    isAllowed: (url) => {
      const target = URL.parse(url);
      // Another origin's rules are not ours to apply.
      if (target === null || target.origin !== origin) return true;
      return robotsAllow(parsed, target.pathname + target.search);
    },
    crawlDelayMs: typeof delay === 'number' && delay > 0 ? delay * 1000 : undefined,
    sitemaps,
  };
}

export interface RobotsCacheOptions {
  fetch: SafeFetch;
  userAgent?: string;
  /** How long an answer is kept. */
  ttlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
}

/** Per-origin robots rules; concurrent lookups for one origin share one fetch. */
export class RobotsCache {
  private readonly entries = new Map<string, { expires: number; rules: Promise<RobotsRules> }>();

  constructor(private readonly options: RobotsCacheOptions) {}

  /** The rules that apply to `url` (fetched on first use per origin). */
  rulesFor(url: string, signal?: AbortSignal): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const now = Date.now();
    const cached = this.entries.get(origin);
    if (cached && cached.expires > now) return cached.rules;
    const rules = this.load(origin, signal);
    this.entries.set(origin, { expires: now + (this.options.ttlMs ?? 10 * 60_000), rules });
    // A cancelled lookup must not be remembered as the origin's answer.
    rules.catch(() => this.entries.delete(origin));
    if (this.entries.size > (this.options.maxEntries ?? 1000)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return rules;
  }

  async isAllowed(url: string, signal?: AbortSignal): Promise<boolean> {
    return (await this.rulesFor(url, signal)).isAllowed(url);
  }

  private async load(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.options.fetch(robotsUrl, {
        signal,
        accept: 'text/plain,*/*;q=0.5',
        maxBytes: MAX_ROBOTS_BYTES,
        timeoutMs: this.options.timeoutMs ?? 10_000,
      });
      if (response.status >= 500) {
        return disallowAll(
          new AppError('UPSTREAM_ERROR', `${robotsUrl} answered HTTP ${response.status}; the site is unreachable for crawling`, {
            retryable: true,
          }),
        );
      }
      if (response.status >= 400 || response.status < 200) return allowAll;
      return parseRobots(robotsUrl, response.body, this.options.userAgent);
    } catch (error) {
      if (signal?.aborted) throw error;
      // Too large: RFC 9309 lets a crawler stop at its limit; an empty file allows everything.
      if (isAppError(error) && error.code === 'PAYLOAD_TOO_LARGE') return allowAll;
      return disallowAll(isAppError(error) ? error : new AppError('UPSTREAM_ERROR', `Could not read ${robotsUrl}`, { cause: error }));
    }
  }
}
