import { createTokenCounter, preparePage, toProviderSchema, unwrapProviderResult } from '../src';

const tokens = createTokenCounter();

describe('preparePage', () => {
  it('keeps a short page whole', () => {
    expect(preparePage('# Title\n\nShort.', { pageTokens: 100, chunkTokens: 50 }, tokens)).toEqual({
      chunks: ['# Title\n\nShort.'],
      tokens: undefined,
      trimmed: false,
    });
  });

  it('splits on paragraphs within the chunk budget and trims to the page budget', () => {
    const text = Array.from({ length: 30 }, (_, i) => `Paragraph number ${i} has a few words in it.`).join('\n\n');
    const page = preparePage(text, { pageTokens: 120, chunkTokens: 40 }, tokens);
    expect(page.trimmed).toBe(true);
    expect(page.tokens).toBe(tokens.count(text));
    expect(page.chunks.length).toBeGreaterThan(2);
    for (const chunk of page.chunks) expect(tokens.count(chunk)).toBeLessThanOrEqual(40);
    expect(page.chunks[0]?.startsWith('Paragraph number 0 ')).toBe(true);
    expect(page.chunks.join('\n\n')).not.toContain('Paragraph number 29 ');
    const kept = page.chunks.reduce((sum, chunk) => sum + tokens.count(chunk), 0);
    expect(kept).toBeLessThanOrEqual(125);
  });

  it('cuts a paragraph longer than a chunk by tokens', () => {
    const long = 'word '.repeat(500);
    const page = preparePage(long, { pageTokens: 1_000, chunkTokens: 100 }, tokens);
    expect(page.trimmed).toBe(false);
    expect(page.chunks).toHaveLength(5);
    expect(page.chunks.join('').trim()).toBe(long.trim());
    for (const chunk of page.chunks) expect(tokens.count(chunk)).toBeLessThanOrEqual(100);
  });

  it('has no chunks for an empty page', () => {
    expect(preparePage('  \n\n ', { pageTokens: 100, chunkTokens: 50 }, tokens).chunks).toEqual([]);
  });
});

describe('toProviderSchema', () => {
  it('keeps an object schema, dropping annotation keywords but not fields named like them', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'x',
      type: 'object',
      properties: { examples: { type: 'array', examples: [[1]] }, $comment: { type: 'string', $comment: 'c' } },
    };
    expect(toProviderSchema(schema)).toEqual({
      schema: { type: 'object', properties: { examples: { type: 'array' }, $comment: { type: 'string' } } },
      wrapped: false,
    });
  });

  it('adds type object to a schema that only has properties', () => {
    expect(toProviderSchema({ properties: { a: { type: 'string' } } }).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });

  it('wraps arrays, scalars and unions under items, keeping definitions at the root', () => {
    const schema = { type: 'array', items: { $ref: '#/$defs/post' }, $defs: { post: { type: 'object' } } };
    expect(toProviderSchema(schema)).toEqual({
      schema: {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: '#/$defs/post' } } },
        required: ['items'],
        additionalProperties: false,
        $defs: { post: { type: 'object' } },
      },
      wrapped: true,
    });
    expect(toProviderSchema({ type: 'string' }).wrapped).toBe(true);
    expect(toProviderSchema({ anyOf: [{ type: 'object' }, { type: 'array' }] }).wrapped).toBe(true);
  });

  it('unwraps answers, and passes through answers the model gave unwrapped', () => {
    expect(unwrapProviderResult({ items: [1] }, true)).toEqual([1]);
    expect(unwrapProviderResult([1], true)).toEqual([1]);
    expect(unwrapProviderResult({ items: [1] }, false)).toEqual({ items: [1] });
  });
});
