'use strict';
/** Renders an article's body blocks as HTML, in a site's habits (wrapped paragraphs, table heads). */
const { esc } = require('./chrome');

/** Groups consecutive list items, table rows and definitions into one element each. */
function groups(blocks) {
  const out = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    const groupKind = { li: 'ul', ol: 'ol', tr: 'table', dt: 'dl', dd: 'dl' }[block.kind];
    if (groupKind && last?.kind === groupKind && last.owner === block.owner) last.items.push(block);
    else if (groupKind) out.push({ kind: groupKind, owner: block.owner, items: [block] });
    else out.push(block);
  }
  return out;
}

/**
 * One group as HTML. `wrap` puts each paragraph in its own styled div (CSS-in-JS sites do);
 * `c` names elements in the site's style.
 */
function renderGroup(group, { c, wrap, rng }) {
  const p = (text) => (wrap ? `<div${c('para')}><p${c('p')}>${esc(text)}</p></div>` : `<p>${esc(text)}</p>`);
  switch (group.kind) {
    case 'p':
      return p(group.text);
    case 'h2':
    case 'h3':
      return `<${group.kind}${wrap ? c('h') : ''}>${esc(group.text)}</${group.kind}>`;
    case 'q':
      return `<blockquote><p>${esc(group.text)}</p></blockquote>`;
    case 'pre':
      return `<pre><code>${esc(group.text)}</code></pre>`;
    case 'ul':
    case 'ol':
      return `<${group.kind}>${group.items.map((i) => `<li>${esc(i.text)}</li>`).join('')}</${group.kind}>`;
    case 'dl':
      return `<dl>${group.items.map((i) => `<${i.kind}>${i.kind === 'dt' ? `<code>${esc(i.text)}</code>` : esc(i.text)}</${i.kind}>`).join('')}</dl>`;
    case 'table': {
      const [head, ...rows] = group.items.map((i) => i.text.split(' | '));
      const th = rng() < 0.7;
      const cells = (row, tag) => `<tr>${row.map((cell) => `<${tag}>${esc(cell)}</${tag}>`).join('')}</tr>`;
      return `<table>${th ? `<thead>${cells(head, 'th')}</thead>` : cells(head, 'td')}<tbody>${rows.map((r) => cells(r, 'td')).join('')}</tbody></table>`;
    }
    default:
      return '';
  }
}

/**
 * The body's groups as HTML with boilerplate `extras` (HTML strings) placed between them, never
 * before the first paragraph. Photo blocks become figures through `figure`.
 */
function renderBody(blocks, options, extras = [], figure = () => '') {
  const parts = groups(blocks.filter((b) => b.owner === 'body')).map((g) => (g.kind === 'photo' ? figure(g) : renderGroup(g, options)));
  const slots = Math.max(1, parts.length - 1);
  extras.forEach((extra, i) => {
    const at = 1 + Math.floor(((i + 0.5 + options.rng() * 0.5) * slots) / Math.max(1, extras.length));
    parts.splice(Math.min(at + i, parts.length), 0, extra);
  });
  return parts.join('\n');
}

/** The text of some blocks, plain, for JSON-LD articleBody. */
const plainText = (blocks) =>
  blocks
    .filter((b) => b.content)
    .map((b) => b.text)
    .join(' ');

module.exports = { groups, renderGroup, renderBody, plainText };
