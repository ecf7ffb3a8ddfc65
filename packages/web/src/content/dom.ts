/**
 * A light DOM (linkedom) for page processing. linkedom is typed with its own classes; the rest of
 * this package works with the standard DOM types, so the cast happens here, once.
 */
import { withImpliedTags } from './implied-tags';
import { parseHTML, HTMLElement as LinkedomElement } from 'linkedom';
import { flattenDeepNesting } from './flatten';

let tableRowsPatched = false;

function tableRows(table: Element): Element[] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const child of Array.from(table.children)) {
    const tag = child.tagName;
    if (tag === 'TR') body.push(child);
    else if (tag === 'THEAD' || tag === 'TBODY' || tag === 'TFOOT') {
      const rows = Array.from(child.children).filter((row) => row.tagName === 'TR');
      (tag === 'THEAD' ? head : tag === 'TFOOT' ? foot : body).push(...rows);
    }
  }
  return [...head, ...body, ...foot];
}

/**
 * linkedom builds tables as plain elements without `rows`, which the GFM table rule needs. The
 * getter follows the DOM standard (thead rows, body rows in order, tfoot rows), answers only for
 * tables, and is installed on first use rather than on import.
 */
function ensureTableRows(): void {
  if (tableRowsPatched) return;
  tableRowsPatched = true;
  const proto = (LinkedomElement as unknown as { prototype: object }).prototype;
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: Element) {
      return this.tagName === 'TABLE' ? tableRows(this) : undefined;
    },
  });
}

/**
 * Parses a page (or a fragment) into a document with a head and a body, its nesting flattened
 * below `DOM_DEPTH_CAP` levels so nothing downstream walks thousands of levels deep.
 */
export function parseDocument(html: string): Document {
  ensureTableRows();
  // linkedom builds a well-formed document only from a full one.
  const { document } = parseHTML(withImpliedTags(html));
  flattenDeepNesting(document.documentElement as unknown as Element);
  return document as unknown as Document;
}

/** The document's base URL: `<base href>` resolved against the page URL. */
export function baseUrlOf(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** An absolute http(s) URL for an attribute value, or undefined. */
export function absoluteHttpUrl(value: string | null | undefined, base: string): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Collapsed visible text of a node. */
export function textOf(node: Node | null | undefined): string {
  return collapseSpace(node?.textContent ?? '');
}

/** Text with its whitespace runs made single spaces, trimmed. */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Length of the collapsed text inside an element's links. */
export function linkTextLength(element: Element): number {
  let total = 0;
  for (const anchor of Array.from(element.querySelectorAll('a'))) total += textOf(anchor).length;
  return total;
}

/** Text compared loosely: lower case, whitespace collapsed. */
export function normalise(text: string): string {
  return collapseSpace(text.toLowerCase());
}

/** The classes of an element, sorted: blocks made by one template share them. */
export function classSignature(element: Element): string {
  return `${element.tagName} ${(element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).sort().join(' ')}`;
}

/** An inline style that hides its element. */
export const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * An element's text with a space between the elements it is made of: a widget's cells run
 * together in textContent ("kcal452fat20g", "Tax includedShips in 24h").
 */
export function spacedText(element: Element): string {
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) parts.push(child.textContent ?? '');
      else if (child.nodeType === 1) {
        parts.push(' ');
        walk(child);
        parts.push(' ');
      }
    }
  };
  walk(element);
  return collapseSpace(parts.join(''));
}

/** Drops an element's class and id: what it is called no longer decides what happens to it. */
export function forgetName(element: Element): void {
  element.removeAttribute('class');
  element.removeAttribute('id');
}

/**
 * Puts an element of `tag` in `element`'s place, holding its children and none of its attributes
 * (an h1 made an h2, a button holding a paragraph made a div), and returns it.
 */
export function retag(element: Element, tag: string): Element {
  const renamed = element.ownerDocument.createElement(tag);
  while (element.firstChild) renamed.appendChild(element.firstChild);
  element.replaceWith(renamed);
  return renamed;
}
