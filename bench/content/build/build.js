#!/usr/bin/env node
'use strict';
/**
 * Writes the synthetic part of the main-content corpus: for every page in text/*.txt, the page
 * as a site of its template would serve it (corpus/<template>/<id>.html) and the expected main
 * text (<id>.txt), then the manifest (corpus/manifest.json) with the real pages (real-pages.json,
 * copied by real.js) and the hand-written ones (hand-pages.json) kept as they are. Every third page of a template is held out (not looked at while tuning).
 *
 * Usage: node bench/content/build/build.js
 */
const fs = require('node:fs');
const path = require('node:path');
const { readArticles, expectedText } = require('./articles');
const { random } = require('./chrome');
const { newsPage, blogPage, galleryPage } = require('./templates');
const { recipePage, productPage, forumPage, docsPage } = require('./templates-more');

const CORPUS = path.join(__dirname, '..', 'corpus');
const STYLES = ['wordpress', 'bem', 'hashed', 'drupal', 'tailwind', 'none'];
const RENDER = {
  news: newsPage,
  i18n: newsPage,
  blog: blogPage,
  comments: (article, style, rng) => (rng() < 0.5 ? newsPage : blogPage)(article, style, rng),
  gallery: galleryPage,
  recipe: recipePage,
  product: productPage,
  forum: forumPage,
  docs: docsPage,
};

/** Comment and review lines gathered under their authors (they render as threads, not body). */
function withThreads(article) {
  for (const kind of ['comment', 'review']) {
    const items = [];
    for (const block of article.blocks) {
      if (block.kind === kind) items.push({ author: block.text, lines: [] });
      else if (block.owner === kind) items[items.length - 1].lines.push(block.text);
    }
    if (items.length) article[kind === 'comment' ? 'comments' : 'reviews'] = items;
  }
  return article;
}

function main() {
  const entries = [];
  const seen = {};
  for (const article of readArticles().map(withThreads)) {
    const index = (seen[article.template] = (seen[article.template] ?? -1) + 1);
    const rng = random(article.id);
    const style = STYLES[(index + Object.keys(seen).length) % STYLES.length];
    const html = RENDER[article.template](article, style, rng);
    const dir = path.join(CORPUS, article.template);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${article.id}.html`), html);
    fs.writeFileSync(path.join(dir, `${article.id}.txt`), expectedText(article));
    entries.push({
      file: `${article.template}/${article.id}`,
      template: article.template,
      url: `https://${article.template}.example/${article.id}`,
      split: index % 3 === 2 ? 'holdout' : 'dev',
      style,
      lang: article.lang,
    });
  }
  const listed = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, name), 'utf8'));
  // The manifest keeps what the benchmark reads; real.js's own fields (source, content...) stay behind.
  const entry = ({ file, template, url, split, style, lang }) => ({ file, template, url, split, style, lang });
  const real = listed('real-pages.json').map(entry);
  const hand = listed('hand-pages.json');
  // The blind batches were written by hand, straight into the corpus: their entries stay as they are.
  const blind = JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')).filter((e) => e.split.startsWith('blind'));
  const all = [...entries, ...real, ...hand.map(entry), ...blind].sort((a, b) => a.file.localeCompare(b.file));
  fs.writeFileSync(path.join(CORPUS, 'manifest.json'), JSON.stringify(all, null, 2) + '\n');
  console.log(`${entries.length} synthetic, ${real.length} real, ${hand.length} hand-written and ${blind.length} blind pages`);
}

main();
