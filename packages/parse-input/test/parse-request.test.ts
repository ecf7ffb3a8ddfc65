import { parseRequest } from '@sitelens/contracts';
import { compileUserSchema } from '../src';

function issues(body: unknown): { path: string; message: string }[] {
  const result = parseRequest.safeParse(body);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

describe('parseRequest', () => {
  it('fills the defaults of spec 2.4 and leaves output_format for the prompt to decide', () => {
    expect(parseRequest.parse({ prompt: '  Extract example.com  ', unknown: 1 })).toEqual({
      prompt: 'Extract example.com',
      stream: false,
      max_depth: 1,
      max_pages: 10,
      async: false,
    });
  });

  it('accepts every field at its bounds', () => {
    const body = {
      prompt: 'Crawl example.com',
      schema: { type: 'object', properties: { title: { type: 'string' } } },
      output_format: 'csv',
      stream: true,
      max_depth: 3,
      max_pages: 100,
      async: true,
    };
    expect(parseRequest.parse(body)).toEqual(body);
  });

  it.each([
    [{}, 'prompt'],
    [{ prompt: '' }, 'prompt'],
    [{ prompt: '   ' }, 'prompt'],
    [{ prompt: 42 }, 'prompt'],
    [{ prompt: 'x', output_format: 'xml' }, 'output_format'],
    [{ prompt: 'x', max_depth: 0 }, 'max_depth'],
    [{ prompt: 'x', max_depth: 4 }, 'max_depth'],
    [{ prompt: 'x', max_depth: 1.5 }, 'max_depth'],
    [{ prompt: 'x', max_pages: 101 }, 'max_pages'],
    [{ prompt: 'x', stream: 'yes' }, 'stream'],
    [{ prompt: 'x', async: 1 }, 'async'],
    [{ prompt: 'x', schema: [] }, 'schema'],
    [{ prompt: 'x', schema: 'object' }, 'schema'],
    [{ prompt: 'x', schema: { properties: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, {}])) } }, 'schema'],
  ])('rejects %j at %s', (body, path) => {
    expect(issues(body).map((issue) => issue.path)).toContain(path);
  });

  it('leaves compiling the schema to compileUserSchema (off the event loop on the gateway)', () => {
    expect(issues({ prompt: 'x', schema: { type: 'object', properties: { age: { type: 'integr' } } } })).toEqual([]);
    const [issue] = issues({ prompt: 'x', schema: { description: 'x'.repeat(70_000) } });
    expect(issue?.path).toBe('schema');
    expect(issue?.message).toMatch(/^is \d+ bytes as JSON/);
  });
});

describe('compileUserSchema', () => {
  it('compiles a schema with formats and validation keywords and validates data', () => {
    const { validate } = compileUserSchema({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
      },
      required: ['email'],
    });
    expect(validate({ email: 'a@example.com', code: 'ABC', age: 3 })).toBe(true);
    expect(validate({ email: 'not-an-email' })).toBe(false);
    expect(validate({ email: 'a@example.com', code: 'abc' })).toBe(false);
    expect(validate({ age: 200 })).toBe(false);
  });

  it('accepts unknown keywords and 2020-12 schemas', () => {
    expect(() => compileUserSchema({ type: 'object', 'x-ui': 'wide', properties: {} })).not.toThrow();
    const { validate } = compileUserSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
    });
    expect(validate(['a'])).toBe(true);
    expect(validate([1])).toBe(false);
  });

  it('compiles one schema object once, and an equal but separate object again', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    const first = compileUserSchema(schema);
    expect(compileUserSchema(schema)).toBe(first);
    expect(compileUserSchema({ ...schema })).not.toBe(first);
  });

  it.each([
    [{ type: 'strng' }, /schema\/type/],
    [{ type: 'string', pattern: '([a-z' }, /pattern|Invalid regular expression/i],
    [{ $ref: '#/definitions/missing' }, /can't resolve reference/],
    [{ type: 'number', minimum: 'zero' }, /schema\/minimum must be number/],
    [{ $schema: 'http://json-schema.org/draft-04/schema#' }, /unsupported \$schema/],
  ])('throws BadRequest naming the problem for %j', (schema, reason) => {
    let caught: unknown;
    try {
      compileUserSchema(schema);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect((caught as Error).message).toMatch(/^schema: /);
    expect((caught as Error).message).toMatch(reason);
  });
});
