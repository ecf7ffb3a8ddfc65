/** Plain text from a DOM subtree: blocks in paragraphs, list items and table rows on their own lines. */

export const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'DETAILS',
  'DIV',
  'DL',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
]);
/** Blocks that sit on consecutive lines rather than in paragraphs of their own. */
export const LINES = new Set(['LI', 'TR', 'DT', 'DD', 'THEAD', 'TBODY', 'TFOOT']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);

// Break markers, merged after the walk: a run holding a paragraph break becomes a blank line.
const PARAGRAPH = '\uE000';
const LINE = '\uE001';

function walk(node: Node, out: string[], pre: boolean): void {
  if (node.nodeType === 3) {
    // Our break markers are private-use characters; a page's own (icon fonts) must not act as them.
    const data = (node as Text).data.replace(/[\uE000\uE001]/g, '');
    out.push(pre ? data : data.replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const tag = (node as Element).tagName ?? '';
  if (SKIP.has(tag)) return;
  if (tag === 'BR') {
    out.push('\n');
    return;
  }
  const marker = BLOCKS.has(tag) ? PARAGRAPH : LINES.has(tag) ? LINE : '';
  out.push(marker);
  const inPre = pre || tag === 'PRE';
  let firstCell = true;
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (tag === 'TR' && child.nodeType === 1) {
      if (!firstCell) out.push('\t');
      firstCell = false;
    }
    walk(child, out, inPre);
  }
  out.push(marker);
}

export function htmlToText(root: Node): string {
  const out: string[] = [];
  walk(root, out, false);
  return out
    .join('')
    .replace(/[ \t]*(?:[\uE000\uE001][ \t]*)+/g, (run) => (run.includes(PARAGRAPH) ? '\n\n' : '\n'))
    .split('\n')
    .map((line) => line.replace(/^ +| +$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
