/**
 * The head and body tags HTML lets a page leave out (pkg.go.dev, minified pages and many
 * generated ones omit `<head>`; some omit `<body>` or `<html>` too), written in where a browser
 * implies them. linkedom builds its tree as the tags say: without them the page's content hangs
 * off `<html>` outside any body, and `document.body` is empty.
 */

/** Elements that belong in the head: the body starts at the first tag that is none of these (or at text). */
const HEAD_TAGS = new Set(['html', 'head', 'meta', 'link', 'title', 'script', 'style', 'base', 'noscript', 'template']);
/** Elements whose content is text, not tags, and is skipped whole ("<script>'<div>'</script>"). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'noscript', 'template', 'textarea']);

/** A comment, a tag (its quoted attribute values may hold ">"), or a character of text. */
const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<(\/?)([a-zA-Z][\w:-]*)(?:"[^"]*"|'[^']*'|[^>"'])*>|<![^>]*>|[^<\s]/gy;

interface Landmarks {
  /** Where the `<html>` start tag ends, or -1. */
  htmlEnd: number;
  head: boolean;
  /** Where the `<body>` start tag begins, or -1. */
  body: number;
  /** Where the body's content begins: the first tag that belongs in no head, or text. */
  content: number;
}

/** One pass over the page's tags (skipping raw text), noting its html, head and body tags and where its content begins. */
function landmarks(html: string): Landmarks {
  const found: Landmarks = { htmlEnd: -1, head: false, body: -1, content: html.length };
  let position = 0;
  while (position < html.length) {
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(html);
    if (!match) {
      position++;
      continue;
    }
    position = TOKEN.lastIndex;
    const name = match[2]?.toLowerCase();
    if (!match[0].startsWith('<')) {
      found.content = Math.min(found.content, match.index);
      return found;
    }
    if (!name || match[1]) continue;
    if (name === 'html' && found.htmlEnd < 0) found.htmlEnd = position;
    else if (name === 'head') found.head = true;
    else if (name === 'body') {
      found.body = match.index;
      found.content = match.index;
      return found;
    }
    if (!HEAD_TAGS.has(name)) {
      found.content = Math.min(found.content, match.index);
      return found;
    }
    if (RAW_TEXT.has(name) && !match[0].endsWith('/>')) {
      const close = new RegExp(`</${name}[\\s>/]`, 'gi');
      close.lastIndex = position;
      const end = close.exec(html);
      if (!end) return found;
      position = end.index;
    }
  }
  return found;
}

/** `html` with its `<html>`, `<head>` and `<body>` start tags written in wherever the page left them out. */
export function withImpliedTags(html: string): string {
  let source = html;
  let marks = landmarks(source);
  if (marks.htmlEnd < 0) {
    const doctype = /^\s*<!doctype[^>]*>/i.exec(source)?.[0] ?? '<!DOCTYPE html>';
    source = `${doctype}<html>${source.replace(/^\s*<!doctype[^>]*>/i, '')}</html>`;
    marks = landmarks(source);
  }
  if (marks.head && marks.body >= 0) return source;
  const start = marks.body >= 0 ? marks.body : Math.max(marks.content, marks.htmlEnd);
  const head = source.slice(marks.htmlEnd, start);
  return (
    source.slice(0, marks.htmlEnd) +
    (marks.head ? head : `<head>${head.replace(/<\/head\s*>/i, '')}</head>`) +
    (marks.body >= 0 ? '' : '<body>') +
    source.slice(start)
  );
}
