/**
 * robots.txt rules (RFC 9309) read in one pass and matched in linear time. robots-parser, used
 * before, matched each rule in time proportional to its length times the path's and kept every
 * group: a 500 KB file cost seconds per link. Here only the group that applies to our agent is
 * kept, at most `MAX_ROBOTS_RULES` rules of at most `MAX_ROBOTS_PATTERN` characters and
 * `MAX_ROBOTS_RULE_CHARS` in all, and a rule's wildcards are matched greedily, segment by segment
 * (linear in the path).
 */

/** RFC 9309 asks crawlers to read at least 500 KiB; the rest of a longer file is not fetched. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** Allow/Disallow rules kept for the group that applies; later ones are ignored. */
export const MAX_ROBOTS_RULES = 1_000;
/** Characters of one rule's path pattern; a longer rule is ignored. */
export const MAX_ROBOTS_PATTERN = 1_024;
/** Characters of all kept rules together: what one link check may walk through at most. */
export const MAX_ROBOTS_RULE_CHARS = 64 * 1024;
/** `Sitemap:` lines kept. */
export const MAX_ROBOTS_SITEMAPS = 100;

interface Rule {
  allow: boolean;
  /** Specificity: the pattern's length as written (normalised). */
  length: number;
  /** Literal parts between `*`s. */
  parts: string[];
  /** `$` at the end: the path must end where the pattern does. */
  anchored: boolean;
}

export interface ParsedRobots {
  /** The rules of our agent's group, or of `*` when there is none, most specific first. */
  rules: Rule[];
  crawlDelaySeconds: number | undefined;
  sitemaps: string[];
}

const upperEscapes = (text: string): string => text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());

/** What robots-parser did too: a pattern and a path compare with the same percent-encoding. */
function normalisePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern;
  }
}

/** "Googlebot/2.1" and "googlebot" are one product token. */
const productToken = (agent: string): string => agent.toLowerCase().split('/')[0]!.trim();

function compileRule(pattern: string, allow: boolean): Rule {
  const normalised = normalisePattern(pattern);
  const anchored = normalised.endsWith('$');
  const body = anchored ? normalised.slice(0, -1) : normalised;
  return { allow, length: normalised.length, parts: body.split('*'), anchored };
}

/** Whether `path` matches: the first part as a prefix, each next one at its leftmost place after. */
function ruleMatches(rule: Rule, path: string): boolean {
  const { parts } = rule;
  if (!path.startsWith(parts[0]!)) return false;
  let at = parts[0]!.length;
  const last = parts.length - 1;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === last && rule.anchored) return path.length - part.length >= at && path.endsWith(part);
    const found = path.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return !rule.anchored || at === path.length;
}

/**
 * Reads the lines of a robots.txt (comments, `User-agent`, `Allow`, `Disallow`, `Crawl-delay`,
 * `Sitemap`), keeping the group of `userAgent` (groups naming it are combined) or else of `*`.
 */
export function readRobots(body: string, userAgent: string): ParsedRobots {
  const ours = productToken(userAgent);
  const groups = { ours: { rules: [] as Rule[], chars: 0 }, any: { rules: [] as Rule[], chars: 0 } };
  const delays: { ours?: number; any?: number } = {};
  let sawOurs = false;
  const sitemaps: string[] = [];
  let agents: string[] = [];
  let inAgentLines = false;
  for (const rawLine of body.slice(0, MAX_ROBOTS_BYTES).split(/\r\n|\r|\n/)) {
    const line = rawLine.split('#', 1)[0]!;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!inAgentLines) agents = [];
      if (value) agents.push(productToken(value));
      inAgentLines = true;
      if (productToken(value) === ours) sawOurs = true;
      continue;
    }
    inAgentLines = false;
    const targets = [agents.includes(ours) ? groups.ours : undefined, agents.includes('*') ? groups.any : undefined];
    if ((field === 'allow' || field === 'disallow') && value && value.length <= MAX_ROBOTS_PATTERN) {
      for (const group of targets) {
        if (!group || group.rules.length >= MAX_ROBOTS_RULES || group.chars + value.length > MAX_ROBOTS_RULE_CHARS) continue;
        group.rules.push(compileRule(value, field === 'allow'));
        group.chars += value.length;
      }
    } else if (field === 'crawl-delay') {
      const delay = Number(value);
      if (value && Number.isFinite(delay)) {
        if (agents.includes(ours)) delays.ours = delay;
        if (agents.includes('*')) delays.any = delay;
      }
    } else if (field === 'sitemap' && value && sitemaps.length < MAX_ROBOTS_SITEMAPS) {
      sitemaps.push(value);
    }
  }
  const { rules } = sawOurs ? groups.ours : groups.any;
  // Most specific first; on equal length Allow wins (RFC 9309 section 2.2.2).
  rules.sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow));
  return { rules, crawlDelaySeconds: sawOurs ? delays.ours : delays.any, sitemaps };
}

/** Whether a path with its query (`/a/b?c`) may be fetched: the most specific matching rule decides. */
export function robotsAllow(parsed: ParsedRobots, pathAndQuery: string): boolean {
  const path = upperEscapes(pathAndQuery);
  for (const rule of parsed.rules) if (ruleMatches(rule, path)) return rule.allow;
  return true;
}
