import { combinePageResults, dedupe, hasMeaningfulData, mergeValues, parseModelJson } from '../src';

describe('mergeValues', () => {
  it('concatenates arrays and removes deep-equal duplicates regardless of key order', () => {
    expect(mergeValues([{ a: 1, b: { c: [1, 2] } }, { a: 2 }], [{ b: { c: [1, 2] }, a: 1 }, { a: 3 }])).toEqual([
      { a: 1, b: { c: [1, 2] } },
      { a: 2 },
      { a: 3 },
    ]);
  });

  it('merges objects: arrays inside concatenated, nested objects merged, first non-empty scalar kept', () => {
    expect(
      mergeValues(
        { title: 'First', price: null, tags: ['a'], meta: { author: 'X', lang: '' } },
        { title: 'Second', price: 10, tags: ['a', 'b'], meta: { author: 'Y', lang: 'en' }, extra: true },
      ),
    ).toEqual({ title: 'First', price: 10, tags: ['a', 'b'], meta: { author: 'X', lang: 'en' }, extra: true });
  });

  it('adds a single value to an array', () => {
    expect(mergeValues([{ a: 1 }], { a: 2 })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(mergeValues({ a: 1 }, [{ a: 1 }, { a: 2 }])).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('dedupe keeps first-seen order', () => {
    expect(dedupe([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
  });
});

describe('combinePageResults', () => {
  it('turns single flat records from several pages into a list, duplicates removed', () => {
    expect(combinePageResults([{ name: 'A' }, { name: 'B', price: 2 }, { name: 'A' }])).toEqual([{ name: 'A' }, { name: 'B', price: 2 }]);
  });

  it('gives one record when the pages agree, and leaves out pages without data', () => {
    expect(combinePageResults([{ name: 'A' }, { name: null }, { name: 'A' }])).toEqual({ name: 'A' });
  });

  it('merges containers of lists from several pages', () => {
    expect(combinePageResults([{ items: [1, 2] }, { items: [] }, { items: [2, 3] }])).toEqual({ items: [1, 2, 3] });
  });
});

describe('hasMeaningfulData', () => {
  it.each([
    [null, false],
    [{}, false],
    [{ items: [], name: null, note: ' ' }, false],
    [[{ a: null }], false],
    [{ items: [{ a: 0 }] }, true],
    [false, true],
  ])('%j -> %s', (value, expected) => {
    expect(hasMeaningfulData(value)).toBe(expected);
  });
});

describe('parseModelJson', () => {
  it.each([
    ['{"a": 1}', { a: 1 }, false],
    ['```json\n[1, 2]\n```', [1, 2], false],
    ['Sure! Here it is: {"a": [1, 2,],} Hope that helps.', { a: [1, 2] }, true],
    ["{a: 'single', b: True, c: None}", { a: 'single', b: true, c: null }, true],
    ['{"items": [{"name": "A"}, {"name": "B', { items: [{ name: 'A' }, { name: 'B' }] }, true],
    ['{"a": 1}\n\nLet me know if you need more!', { a: 1 }, false],
    ['{"a": 1,}\n\nLet me know if you need more!', { a: 1 }, true],
    ['```json\n{"cut": "off', { cut: 'off' }, true],
    ['"just a string"', 'just a string', false],
  ])('reads %j', (text, value, repaired) => {
    expect(parseModelJson(text)).toEqual({ ok: true, value, repaired });
  });

  it.each(['', 'Sorry, I cannot help with that.'])('refuses %j', (text) => {
    expect(parseModelJson(text).ok).toBe(false);
  });
});
