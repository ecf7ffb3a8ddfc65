/**
 * Crawl path globs compiled to one RE2 program (re2js): matching a path takes time linear in its
 * length whatever the globs, so `/*a*a*a*a*a*a*a*ax` against `/aaaa…` cannot hold a worker.
 *
 * Syntax (picomatch's, with `dot: true`): `*` any characters but `/` (a whole segment: at least
 * one), `**` as a whole segment any number of segments, `?` one character but `/`, `[abc]`,
 * `[a-z]`, `[!a]` or `[^a]` one character of (or not of) a class, `{a,b}` either (nesting allowed),
 * `\` quotes the next character. A glob ending in `*` also matches a trailing slash.
 */
import { RE2JS } from 're2js';

function isSegmentStart(glob: string, at: number): boolean {
  return at === 0 || glob[at - 1] === '/';
}

function isSegmentEnd(glob: string, at: number): boolean {
  return at >= glob.length || glob[at] === '/';
}

/** `[...]` starting at `at`: the RE2 class and where the glob goes on, or undefined when not a class. */
function readClass(glob: string, at: number): { regex: string; next: number } | undefined {
  let i = at + 1;
  let negate = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negate = true;
    i += 1;
  }
  const chars: string[] = [];
  while (i < glob.length && (glob[i] !== ']' || chars.length === 0)) {
    if (glob[i] === '\\' && i + 1 < glob.length) i += 1;
    chars.push(glob[i]!);
    i += 1;
  }
  if (i >= glob.length) return undefined;
  let body = '';
  for (let c = 0; c < chars.length; c++) {
    const low = chars[c]!;
    const high = chars[c + 2];
    if (chars[c + 1] === '-' && high !== undefined && low <= high) {
      body += `${quoteInClass(low)}-${quoteInClass(high)}`;
      c += 2;
    } else {
      body += quoteInClass(low);
    }
  }
  return { regex: `[${negate ? '^/' : ''}${body}]`, next: i + 1 };
}

function quoteInClass(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
}

/** Whether the `{` at `at` opens a group closed later (otherwise it is a literal brace). */
function closes(glob: string, at: number): boolean {
  let depth = 0;
  for (let i = at; i < glob.length; i++) {
    if (glob[i] === '\\') i += 1;
    else if (glob[i] === '{') depth += 1;
    else if (glob[i] === '}' && --depth === 0) return true;
  }
  return false;
}

/** The RE2 source (unanchored) of one glob. */
export function globToRegexSource(glob: string): string {
  let out = '';
  let groups = 0;
  let i = 0;
  while (i < glob.length) {
    const char = glob[i]!;
    if (char === '\\' && i + 1 < glob.length) {
      out += RE2JS.quote(glob[i + 1]!);
      i += 2;
    } else if (char === '*') {
      let end = i;
      while (glob[end] === '*') end += 1;
      const wholeSegment = isSegmentStart(glob, i) && isSegmentEnd(glob, end);
      if (end - i >= 2 && wholeSegment) {
        if (end >= glob.length) {
          // "/blog/**": /blog, /blog/ and anything below it.
          out = out.endsWith('/') ? `${out.slice(0, -1)}(?:/.*)?` : `${out}.*`;
        } else {
          // "/a/**/b": /a/b, /a/x/b, /a/x/y/b.
          out += '(?:.*/)?';
          end += 1;
        }
      } else {
        out += wholeSegment ? '[^/]+' : '[^/]*';
        if (end >= glob.length) out += '/?';
      }
      i = end;
    } else if (char === '?') {
      out += '[^/]';
      i += 1;
    } else if (char === '[') {
      const range = readClass(glob, i);
      out += range ? range.regex : '\\[';
      i = range ? range.next : i + 1;
    } else if (char === '{' && closes(glob, i)) {
      out += '(?:';
      groups += 1;
      i += 1;
    } else if (char === ',' && groups > 0) {
      out += '|';
      i += 1;
    } else if (char === '}' && groups > 0) {
      out += ')';
      groups -= 1;
      i += 1;
    } else {
      out += RE2JS.quote(char);
      i += 1;
    }
  }
  return out;
}

/**
 * One matcher for a list of globs: true when the whole path matches any of them. A glob RE2
 * cannot compile (it should not happen) is matched literally rather than failing the crawl.
 */
export function compilePathGlobs(globs: readonly string[]): (path: string) => boolean {
  const sources = globs.map((glob) => {
    const source = globToRegexSource(glob);
    try {
      RE2JS.compile(source);
      return source;
    } catch {
      return RE2JS.quote(glob);
    }
  });
  const matcher = RE2JS.compile(`^(?:${sources.join('|')})$`, RE2JS.DOTALL);
  return (path) => matcher.matches(path);
}
