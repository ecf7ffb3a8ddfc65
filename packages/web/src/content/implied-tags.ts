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

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<!?\/?([a-zA-Z][\w:-]*)?[^>]*>|[^<\s]/g;

/** Where the body's content begins in `html`, scanning from `from`: its `<body>` tag, else its first non-head tag or text. */
function bodyStart(html: string, from: number): number {
  TOKEN.lastIndex = from;
  for (let match = TOKEN.exec(html); match; match = TOKEN.exec(html)) {
    const token = match[0];
    if (!token.startsWith('<')) return match.index;
    const name = match[1]?.toLowerCase();
    if (!name || token.startsWith('<!') || token.startsWith('</')) continue;
    if (!HEAD_TAGS.has(name)) return match.index;
    if (RAW_TEXT.has(name) && !token.endsWith('/>')) {
      const close = html.toLowerCase().indexOf(`</${name}`, TOKEN.lastIndex);
      if (close < 0) return html.length;
      TOKEN.lastIndex = close;
    }
  }
  return html.length;
}

/** `html` with its `<html>`, `<head>` and `<body>` start tags written in wherever the page left them out. */
export function withImpliedTags(html: string): string {
  let source = html;
  if (!/<html[\s>]/i.test(source)) {
    const doctype = /^\s*<!doctype[^>]*>/i.exec(source)?.[0] ?? '<!DOCTYPE html>';
    source = `${doctype}<html>${source.replace(/^\s*<!doctype[^>]*>/i, '')}</html>`;
  }
  const hasHead = /<head[\s>]/i.test(source);
  const hasBody = /<body[\s>]/i.test(source);
  if (hasHead && hasBody) return source;
  const htmlTag = /<html[^>]*>/i.exec(source)!;
  const afterHtml = htmlTag.index + htmlTag[0].length;
  const bodyOpen = hasBody ? source.search(/<body[\s>]/i) : -1;
  const start = hasBody ? bodyOpen : bodyStart(source, afterHtml);
  const head = source.slice(afterHtml, start);
  return (
    source.slice(0, afterHtml) +
    (hasHead ? head : `<head>${head.replace(/<\/head\s*>/i, '')}</head>`) +
    (hasBody ? '' : '<body>') +
    source.slice(start)
  );
}
