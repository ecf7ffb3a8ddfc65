#!/usr/bin/env node
'use strict';
/**
 * Main-content benchmark. Every page of the labelled corpus (corpus/manifest.json: synthetic
 * pages in the markup of many kinds of site, and real documentation pages) goes through the
 * extractor `GET /v1/scrape?format=text&render_js=false` runs (createContentExtractor().extract
 * with { text: true }, from the TypeScript sources), and its text is scored against the page's
 * expected main text by shingle F1 (score.js). In the same run: Readability alone on the raw
 * page (its textContent), the baseline. Prints precision, recall and F1 per template, for the
 * dev, holdout and blind splits (blind, blind2, ...: pages written apart, each batch by someone who saw
 * neither the extractor nor the rest of the corpus; a batch is scored once before anyone tunes
 * against it, and that first score is the honest one) and overall, and the extractor's ms per page (median of --rounds timed
 * runs per page, after a warm-up; p50 and p95 over pages).
 *
 * Usage: node bench/content/run.js [--split dev|holdout|blind|blind2|...] [--rounds 5] [--pages] [--show <file>] [--web <dir>]
 *   --pages: a line per page; --show: the extracted text of one page with its missed and extra lines;
 *   --web: another checkout's packages/web/src (to score an earlier extractor on the same corpus).
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ROOT, percentile } = require('../lib/harness');
const { matchCounts, aggregate, shingles, tokens } = require('./score');

require(path.join(ROOT, 'packages/testkit/src/ts-register.js'));
const { values: options } = parseArgs({
  options: {
    split: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    pages: { type: 'boolean' },
    show: { type: 'string' },
    web: { type: 'string', default: path.join(ROOT, 'packages/web/src') },
  },
});
const { createContentExtractor } = require(path.resolve(options.web, 'content/page-content.ts'));
const fromWeb = (name) => require(require.resolve(name, { paths: [path.join(ROOT, 'packages/web')] }));
const { Readability } = fromWeb('@mozilla/readability');
const { parseHTML } = fromWeb('linkedom');
const CORPUS = path.join(__dirname, 'corpus');

function baseline(html) {
  const { document } = parseHTML(html);
  return new Readability(document).parse()?.textContent ?? '';
}

/**
 * Whether `line` is found in `text`: a line of 1-3 tokens as a run of the text's tokens (its
 * shingle of all its tokens says nothing of short lines inside a longer text), a longer line by
 * most of its shingles.
 */
function foundIn(line, text) {
  const words = tokens(line);
  if (words.length === 0) return true;
  if (words.length < 4) return text.stream.includes(` ${words.join(' ')} `);
  const own = [...shingles(line).keys()];
  return own.filter((s) => text.shingles.has(s)).length * 2 >= own.length;
}

function showPage(page, text) {
  const lines = (t) =>
    t
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const indexed = (t) => ({ stream: ` ${tokens(t).join(' ')} `, shingles: shingles(t) });
  const truth = indexed(page.expected);
  const guess = indexed(text);
  console.log(`--- ${page.file} (extracted)\n${text}\n--- extra lines (not in the expected text)`);
  for (const line of lines(text)) if (!foundIn(line, truth)) console.log(`+ ${line}`);
  console.log('--- missed lines');
  for (const line of lines(page.expected)) if (!foundIn(line, guess)) console.log(`- ${line}`);
}

const fmt = (s) => `P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F1 ${s.f1.toFixed(3)}`;

function main() {
  const manifest = JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8'));
  const pages = manifest
    .filter((p) => !options.split || p.split === options.split)
    .filter((p) => !options.show || p.file === options.show)
    .map((p) => ({
      ...p,
      html: fs.readFileSync(path.join(CORPUS, `${p.file}.html`), 'utf8'),
      expected: fs.readFileSync(path.join(CORPUS, `${p.file}.txt`), 'utf8'),
    }));
  if (pages.length === 0) throw new Error('no pages');
  const extractor = createContentExtractor();
  const extract = (page) => extractor.extract(page.html, page.url, { text: true }).text ?? '';
  const rounds = Math.max(1, Number(options.rounds));

  for (const page of pages) {
    page.text = extract(page); // also the warm-up
    page.counts = matchCounts(page.expected, page.text);
    page.baseCounts = matchCounts(page.expected, baseline(page.html));
    const times = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      extract(page);
      times.push(performance.now() - t0);
    }
    page.ms = percentile(times, 50);
  }
  if (options.show) return showPage(pages[0], pages[0].text);

  const row = (label, group) => {
    const ours = aggregate(group.map((p) => p.counts));
    const base = aggregate(group.map((p) => p.baseCounts));
    console.log(`${label.padEnd(16)} ${String(group.length).padStart(3)}  ${fmt(ours)}   | Readability ${fmt(base)}`);
    return ours;
  };
  if (options.pages) {
    for (const p of pages) {
      const s = aggregate([p.counts]);
      console.log(`${p.file.padEnd(44)} ${p.split.padEnd(7)} ${fmt(s)}  ${p.ms.toFixed(1)} ms`);
    }
    console.log();
  }
  console.log(`${'template'.padEnd(16)} pages  Sitelens${' '.repeat(32)}| baseline`);
  const templates = [...new Set(pages.map((p) => p.template))].sort();
  const scores = templates.map((t) =>
    row(
      t,
      pages.filter((p) => p.template === t),
    ),
  );
  console.log();
  // dev, holdout, then each blind batch in the order they were written.
  const splitOrder = (split) => (split === 'dev' ? -2 : split === 'holdout' ? -1 : Number(split.replace(/^blind/, '') || 1));
  for (const split of [...new Set(pages.map((p) => p.split))].sort((a, b) => splitOrder(a) - splitOrder(b))) {
    const group = pages.filter((p) => p.split === split);
    if (group.length) row(split, group);
  }
  // By origin: generated in a site's markup, real pages shipped on this machine, written by hand.
  for (const [label, test] of [
    ['synthetic', (p) => !p.split.startsWith('blind') && p.style !== 'real' && p.style !== 'hand'],
    ['real', (p) => p.style === 'real'],
    ['hand-written', (p) => p.style === 'hand'],
  ]) {
    const group = pages.filter(test);
    if (group.length) row(label, group);
  }
  row('all pages', pages);
  const worst = templates[scores.indexOf(scores.reduce((a, b) => (b.f1 < a.f1 ? b : a)))];
  console.log(`lowest template: ${worst} (F1 ${Math.min(...scores.map((s) => s.f1)).toFixed(3)})`);
  const ms = pages.map((p) => p.ms);
  console.log(`ms per page: p50 ${percentile(ms, 50).toFixed(1)}  p95 ${percentile(ms, 95).toFixed(1)}  max ${Math.max(...ms).toFixed(1)}`);
}

main();
