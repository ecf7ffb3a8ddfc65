/**
 * What a watch compares: content with the noise taken out, so a check reports a change only when
 * what a reader sees changed. Text: line endings, invisible characters and runs of spaces;
 * tracking and cache-busting URL parameters. HTML (with include_html): only meaningful
 * attributes kept, so nonces, CSRF tokens, generated ids and class names do not count.
 */
import { createHash } from 'node:crypto';
import { parseDocument } from '@sitelens/web';

const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
const VOLATILE_PARAMS =
  /^(utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl|_hs[a-z]+|_|cb|cachebust(er)?|nonce|phpsessid|jsessionid|sessionid)$/i;
const URL_IN_TEXT = /https?:\/\/[^\s)<>"']+/g;

// Resolves relative URLs so they can be cleaned too; they are written back relative.
const RELATIVE_BASE = 'http://relative.invalid';

/** Removes tracking and cache-busting parameters (and `;jsessionid=`) from one URL. */
export function stripVolatileParams(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, RELATIVE_BASE);
  } catch {
    return url;
  }
  const original = parsed.href;
  parsed.pathname = parsed.pathname.replace(/;jsessionid=[^/]*/i, '');
  for (const name of [...parsed.searchParams.keys()]) {
    if (VOLATILE_PARAMS.test(name)) parsed.searchParams.delete(name);
  }
  // Keep the original spelling when nothing was removed (URL() re-encodes some characters).
  if (parsed.href === original) return url;
  return parsed.origin === RELATIVE_BASE && !url.startsWith(RELATIVE_BASE) ? parsed.href.slice(RELATIVE_BASE.length) : parsed.href;
}

/** Markdown/text: one line ending, no invisible characters, single spaces, no trailing blanks. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(URL_IN_TEXT, stripVolatileParams)
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)?.[0].replace(/\t/g, '  ') ?? '';
      return indent + line.trim().replace(/[^\S\n]+/g, ' ');
    })
    .join('\n')
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Attributes that carry content; every other one (class, id, style, data-*, nonce...) is dropped. */
const KEPT_ATTRIBUTES = new Set([
  'href',
  'src',
  'alt',
  'title',
  'lang',
  'dir',
  'colspan',
  'rowspan',
  'headers',
  'scope',
  'datetime',
  'value',
  'type',
  'name',
  'checked',
  'selected',
  'disabled',
  'start',
  'reversed',
  'label',
]);
const DROPPED_ELEMENTS = 'script, style, noscript, template, link, meta, input[type="hidden"]';

function cleanElement(element: Element): void {
  for (const attribute of Array.from(element.attributes)) {
    const name = attribute.name.toLowerCase();
    if (!KEPT_ATTRIBUTES.has(name)) element.removeAttribute(attribute.name);
    else if (name === 'href' || name === 'src') element.setAttribute(attribute.name, stripVolatileParams(attribute.value.trim()));
  }
}

function removeComments(node: Node): void {
  for (let child = node.firstChild; child;) {
    const next = child.nextSibling;
    if (child.nodeType === 8) child.parentNode?.removeChild(child);
    else removeComments(child);
    child = next;
  }
}

/** HTML of the watched region reduced to its meaningful markup, whitespace collapsed. */
export function normaliseHtml(html: string): string {
  const document = parseDocument(html);
  const body = document.body;
  if (!body) return normaliseText(html);
  for (const element of Array.from(body.querySelectorAll(DROPPED_ELEMENTS))) element.remove();
  removeComments(body);
  cleanElement(body);
  for (const element of Array.from(body.querySelectorAll('*'))) cleanElement(element);
  return body.innerHTML.replace(/\s+/g, ' ').replace(/>\s+</g, '><').trim();
}

/** The hash a check compares: the normalised content, and the normalised HTML when it is watched. */
export function contentHash(content: string, html?: string): string {
  const hash = createHash('sha256').update(content);
  if (html !== undefined) hash.update('\u0000').update(html);
  return hash.digest('hex');
}
