#!/usr/bin/env node
'use strict';
/**
 * Copies the real documentation pages named in real-pages.json (HTML shipped on this machine:
 * rustdoc, mdBook, Node.js and npm docs, DocBook, a 2000s table layout, asciidoc) into the corpus,
 * with their expected text: the page's content element, read by eye for each page, without the
 * parts named in `drop` (in-content tables of contents, anchors, copy buttons), and `title` first
 * when the content element does not hold the page's heading. Block elements end lines, so
 * adjacent list items never run together.
 *
 * Usage: node bench/content/build/real.js (then build.js writes the manifest)
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseHTML } = require(require.resolve('linkedom', { paths: [path.join(__dirname, '../../../packages/web')] }));

const BLOCK = /^(P|DIV|LI|TR|TD|TH|H[1-6]|PRE|DT|DD|BLOCKQUOTE|SECTION|TABLE|UL|OL|DL|HEADER|BR)$/;

function text(element) {
  for (const node of Array.from(element.querySelectorAll('*'))) {
    if (BLOCK.test(node.tagName)) node.after(element.ownerDocument.createTextNode('\n'));
  }
  return element.textContent
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

const CORPUS = path.join(__dirname, '..', 'corpus');
for (const page of JSON.parse(fs.readFileSync(path.join(__dirname, 'real-pages.json'), 'utf8'))) {
  const html = fs.readFileSync(page.source, 'utf8');
  const { document } = parseHTML(html);
  const content = document.querySelector(page.content);
  if (!content) throw new Error(`${page.file}: nothing matches ${page.content}`);
  for (const selector of page.drop) content.querySelectorAll(selector).forEach((el) => el.remove());
  content.querySelectorAll('script, style').forEach((el) => el.remove());
  const expected = `${page.title ? `${page.title}\n` : ''}${text(content)}\n`;
  fs.mkdirSync(path.dirname(path.join(CORPUS, page.file)), { recursive: true });
  fs.writeFileSync(path.join(CORPUS, `${page.file}.html`), html);
  fs.writeFileSync(path.join(CORPUS, `${page.file}.txt`), expected);
  console.log(page.file, expected.length);
}
