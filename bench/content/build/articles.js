'use strict';
/**
 * Reads the corpus texts (text/*.txt): one "@@ id template lang" line per page, then
 * "kind: text" lines. Content kinds make the expected main text; the others (dek, photo, comment,
 * review, price, post) are rendered as the page's boilerplate, or, for a forum post, as the
 * author line of the body that follows.
 */
const fs = require('node:fs');
const path = require('node:path');

const CONTENT = new Set(['title', 'p', 'h2', 'h3', 'li', 'ol', 'q', 'pre', 'tr', 'dt', 'dd']);

function readArticles(dir = path.join(__dirname, 'text')) {
  const articles = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()) {
    let current;
    let owner = 'body';
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.startsWith('#') || !line.trim()) continue;
      const head = /^@@ (\S+) (\S+) (\S+)$/.exec(line);
      if (head) {
        current = { id: head[1], template: head[2], lang: head[3], blocks: [] };
        owner = 'body';
        articles.push(current);
        continue;
      }
      const match = /^([a-z0-9]+): (.*)$/.exec(line);
      if (!match || !current) throw new Error(`${file}: cannot read "${line}"`);
      const [, kind, text] = match;
      if (kind === 'title') current.title = text;
      else if (kind === 'dek' || kind === 'price') current[kind] = text;
      else if (kind === 'comment' || kind === 'review' || kind === 'post') {
        owner = kind;
        current.blocks.push({ kind, text });
      } else {
        const [caption, credit] = text.split(' | ');
        const block = kind === 'photo' ? { kind, caption, credit } : { kind, text: text.replace(/\\n/g, '\n') };
        // Lines after a comment or review belong to it; after a forum post's author, to the post.
        block.content = CONTENT.has(kind) && (owner === 'body' || owner === 'post');
        block.owner = owner;
        current.blocks.push(block);
      }
    }
  }
  return articles;
}

/** The expected main text: the title, then every content block (a gallery's captions too), as a reader would copy it. */
function expectedText(article) {
  const lines = [article.title, ''];
  for (const block of article.blocks) {
    // A gallery is told in its photos' captions (their credits are not content); an article's captions are boilerplate.
    if (block.kind === 'photo' && article.template === 'gallery') lines.push(block.caption, '');
    if (!block.content) continue;
    lines.push(block.kind === 'tr' ? block.text.split(' | ').join('\t') : block.text, '');
  }
  return lines.join('\n').trim() + '\n';
}

module.exports = { readArticles, expectedText };
