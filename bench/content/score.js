'use strict';
/**
 * Shingle F1, the measure of the public article-extraction benchmark (scrapinghub): a text is
 * its word tokens (runs of letters, marks, digits and underscores, lower-cased), taken as a
 * multiset of 4-token shingles. Per page, true positives are the shingles both texts hold (with
 * counts), false positives the extra predicted ones, false negatives the missed ones. Precision
 * and recall are averaged over pages (precision over pages that predicted something, recall over
 * pages that expect something), and F1 is the harmonic mean of those two means.
 * Edge cases, as the benchmark has them: a text of 1-3 tokens is one shingle of all its tokens;
 * an empty text has no shingles; two texts with nothing extra and nothing missed score 1.
 */

const TOKEN = /[\p{L}\p{M}\p{N}_]+/gu;

function tokens(text) {
  return (text ?? '').toLowerCase().match(TOKEN) ?? [];
}

/** The text's shingles of `n` tokens, each with its count. */
function shingles(text, n = 4) {
  const words = tokens(text);
  const counts = new Map();
  for (let i = 0; i < Math.max(1, words.length - n + 1); i++) {
    const shingle = words.slice(i, i + n).join(' ');
    if (shingle) counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

/** True positives, false positives and false negatives of `predicted` against `expected`. */
function matchCounts(expected, predicted, n = 4) {
  const truth = shingles(expected, n);
  const guess = shingles(predicted, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...truth.keys(), ...guess.keys()])) {
    const t = truth.get(key) ?? 0;
    const g = guess.get(key) ?? 0;
    tp += Math.min(t, g);
    fp += Math.max(0, g - t);
    fn += Math.max(0, t - g);
  }
  return { tp, fp, fn };
}

function pageScores({ tp, fp, fn }) {
  const perfect = fp === 0 && fn === 0;
  return {
    precision: tp + fp > 0 ? (perfect ? 1 : tp / (tp + fp)) : undefined,
    recall: tp + fn > 0 ? (perfect ? 1 : tp / (tp + fn)) : undefined,
  };
}

const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** Mean precision, mean recall and their F1 over pages' match counts. */
function aggregate(counts) {
  const scores = counts.map(pageScores);
  const precision = mean(scores.map((s) => s.precision).filter((p) => p !== undefined));
  const recall = mean(scores.map((s) => s.recall).filter((r) => r !== undefined));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, pages: counts.length };
}

module.exports = { tokens, shingles, matchCounts, pageScores, aggregate };
