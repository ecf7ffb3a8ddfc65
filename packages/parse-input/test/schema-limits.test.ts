import { parseRequest, SCHEMA_LIMITS } from '@sitelens/contracts';
import { compileUserSchema } from '../src';

function rejection(schema: unknown): { code?: string; message: string } {
  try {
    compileUserSchema(schema);
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('the schema was accepted');
}

function nested(levels: number): Record<string, unknown> {
  // Built from the inside out, without recursion.
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

describe('user schema limits', () => {
  it('refuses a schema nested 20,000 levels with a 400 naming the depth limit, not a stack overflow', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 20_000; i++) cursor = (cursor.not = {}) as Record<string, unknown>;
    expect(rejection(deep)).toEqual({ code: 'INVALID_REQUEST', message: 'schema: is nested more than 32 levels deep' });
    let list: unknown[] = [];
    const root = { enum: list };
    for (let i = 0; i < 20_000; i++) list = (list[0] = []) as unknown[];
    expect(rejection(root).message).toMatch(/nested more than 32 levels/);
  });

  it('counts levels of objects and arrays: 32 pass, 33 do not', () => {
    // nested(n) has 2n-1 levels (each step is a schema and its properties map).
    expect(() => compileUserSchema(nested(16))).not.toThrow();
    expect(rejection(nested(17)).message).toMatch(/nested more than 32 levels/);
  });

  it('refuses more than 1,000 properties, counted across levels', () => {
    const props = (from: number, count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${from + i}`, { type: 'string' }]));
    expect(() => compileUserSchema({ type: 'object', properties: props(0, 1000) })).not.toThrow();
    const split = { type: 'object', properties: { ...props(0, 600), inner: { type: 'object', properties: props(600, 401) } } };
    expect(rejection(split)).toEqual({ code: 'INVALID_REQUEST', message: 'schema: has more than 1000 properties' });
  });

  it('refuses a schema over 64 KiB as JSON, naming the size', () => {
    const big = { type: 'string', description: 'x'.repeat(SCHEMA_LIMITS.maxBytes) };
    expect(rejection(big).message).toMatch(/^schema: is \d+ bytes as JSON, more than the 65536 \(64 KiB\) allowed$/);
    // Counted in UTF-8 bytes: 30,000 "é" are 60,000 bytes, 40,000 are 80,000.
    expect(() => compileUserSchema({ description: 'é'.repeat(30_000) })).not.toThrow();
    expect(rejection({ description: 'é'.repeat(40_000) }).message).toMatch(/bytes as JSON/);
  });

  it('refuses huge arrays by size, before compiling anything', () => {
    const anyOf = Array.from({ length: 50_000 }, () => ({ pattern: 'a' }));
    expect(rejection({ anyOf }).message).toBe('schema: is more than 65536 bytes (64 KiB) as JSON');
    const members = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, 0]));
    expect(rejection({ default: members }).message).toBe('schema: is more than 65536 bytes (64 KiB) as JSON');
    expect(rejection({ enum: new Array(1_000_000).fill(0) }).message).toBe('schema: is more than 65536 bytes (64 KiB) as JSON');
  });
});

describe('schema patterns on the linear-time engine', () => {
  it('checks a catastrophic pattern in linear time', () => {
    const { validate } = compileUserSchema({ type: 'string', pattern: '^(a+)+$' });
    expect(validate(`${'a'.repeat(30)}!`)).toBe(false);
    expect(validate('a'.repeat(100_000))).toBe(true);
    const { validate: props } = compileUserSchema({ type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'number' } } });
    expect(props({ [`${'x'.repeat(40)}`]: 'not checked', xxy: 1 })).toBe(true);
    expect(props({ xxy: 'no' })).toBe(false);
  });

  it('runs ECMAScript syntax: classes, escapes, unicode, named groups', () => {
    const { validate } = compileUserSchema({
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,4}$' },
        word: { type: 'string', pattern: '^\\p{L}+$' },
        path: { type: 'string', pattern: '^\\/(?<seg>\\w+)$' },
      },
    });
    expect(validate({ code: 'ABC-123', word: 'café', path: '/x' })).toBe(true);
    expect(validate({ code: 'abc-123' })).toBe(false);
    expect(validate({ word: 'a1' })).toBe(false);
  });

  it.each([
    ['a backreference', { type: 'string', pattern: '^(a)\\1$' }, '/pattern'],
    ['a lookahead', { properties: { name: { pattern: '^(?=x)x' } } }, '/properties/name/pattern'],
    ['a lookbehind', { items: [{ pattern: '(?<!a)b' }] }, '/items/0/pattern'],
    ['a patternProperties name', { patternProperties: { '(?!x)y': {} } }, '/patternProperties/(?!x)y'],
    ['an invalid regex', { $defs: { a: { pattern: '([a-z' } } }, '/$defs/a/pattern'],
    ['an oversized repeat', { pattern: '(a{1000}){1000}' }, '/pattern'],
    ['a too large program', { pattern: '\\w{1000}'.repeat(6) }, '/pattern'],
  ])('refuses %s with a 400 naming the pattern', (_name, schema, at) => {
    const { code, message } = rejection(schema);
    expect(code).toBe('INVALID_REQUEST');
    expect(message.startsWith(`schema: pattern at ${at} cannot be used: `)).toBe(true);
  });

  it('leaves strings that are data alone: enum values, defaults and property names called pattern', () => {
    expect(() =>
      compileUserSchema({
        type: 'object',
        properties: { pattern: { type: 'string', default: '(a)\\1' }, kind: { enum: [{ pattern: '(?=x)' }] } },
        examples: [{ pattern: '(a)\\1' }],
      }),
    ).not.toThrow();
  });
});

describe('parseRequest schema edge cases', () => {
  it.each([
    ['an array', []],
    ['a string', 'object'],
    ['a number', 42],
    [
      'a deep nest',
      (() => {
        const root: Record<string, unknown> = {};
        let c = root;
        for (let i = 0; i < 5000; i++) c = (c.items = {}) as Record<string, unknown>;
        return root;
      })(),
    ],
    ['too many properties', { properties: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, true])) }],
  ])('refuses %s as a schema issue, never by throwing', (_name, schema) => {
    const result = parseRequest.safeParse({ prompt: 'x https://example.com', schema });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['schema']);
  });
});
