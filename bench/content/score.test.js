'use strict';
/* global describe, it, expect */
/** The benchmark's measure (score.js) on known inputs with known outputs. */
const { aggregate, matchCounts, pageScores, shingles, tokens } = require('./score');

describe('shingle F1 (bench/content/score.js)', () => {
  it('tokenizes on letters, marks, digits and underscores, lower-cased, in any script', () => {
    expect(tokens('Hello, World! Ünïcode 42_x — l’été')).toEqual(['hello', 'world', 'ünïcode', '42_x', 'l', 'été']);
    expect(tokens('東京で桜が開花した。満開は来週')).toEqual(['東京で桜が開花した', '満開は来週']);
    expect(tokens('')).toEqual([]);
  });

  it('takes overlapping 4-token shingles with counts, and one shingle of a shorter text', () => {
    expect([...shingles('a b c d e').entries()]).toEqual([
      ['a b c d', 1],
      ['b c d e', 1],
    ]);
    expect([...shingles('a b c d a b c d').entries()]).toEqual([
      ['a b c d', 2],
      ['b c d a', 1],
      ['c d a b', 1],
      ['d a b c', 1],
    ]);
    expect([...shingles('Just two').entries()]).toEqual([['just two', 1]]);
    expect(shingles('   ').size).toBe(0);
  });

  it('counts true and false positives and misses with multiplicity', () => {
    expect(matchCounts('a b c d e', 'a b c d x')).toEqual({ tp: 1, fp: 1, fn: 1 });
    expect(matchCounts('a b c d a b c d', 'a b c d')).toEqual({ tp: 1, fp: 0, fn: 4 });
    expect(matchCounts('One two three four.', 'one TWO three, four')).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('scores a page: nothing predicted has no precision, nothing expected has no recall', () => {
    expect(pageScores({ tp: 3, fp: 1, fn: 2 })).toEqual({ precision: 0.75, recall: 0.6 });
    expect(pageScores(matchCounts('a b c d', ''))).toEqual({ precision: undefined, recall: 0 });
    expect(pageScores(matchCounts('', 'a b c d'))).toEqual({ precision: 0, recall: undefined });
    expect(pageScores(matchCounts('', ''))).toEqual({ precision: undefined, recall: undefined });
  });

  it('averages precision and recall over pages and takes the F1 of the means', () => {
    const result = aggregate([
      { tp: 1, fp: 0, fn: 0 }, // P 1, R 1
      { tp: 1, fp: 1, fn: 3 }, // P 0.5, R 0.25
      { tp: 0, fp: 0, fn: 2 }, // nothing predicted: R 0, no precision
    ]);
    expect(result.precision).toBeCloseTo(0.75, 10);
    expect(result.recall).toBeCloseTo(1.25 / 3, 10);
    expect(result.f1).toBeCloseTo((2 * 0.75 * (1.25 / 3)) / (0.75 + 1.25 / 3), 10);
    expect(result.pages).toBe(3);
  });
});
