import path from 'node:path';
import { createSchemaChecker, type SchemaChecker } from '../src';
import { schemaCheckerForTests } from '@sitelens/testkit';

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('resolved');
}

describe('createSchemaChecker', () => {
  let checker: SchemaChecker;
  beforeAll(() => {
    checker = createSchemaChecker(schemaCheckerForTests());
  });
  afterAll(() => checker.close());

  it('compiles schemas in its thread, one after another', async () => {
    const checks = Array.from({ length: 5 }, (_, i) => checker.check({ type: 'object', properties: { [`p${i}`]: { pattern: '^a+$' } } }));
    await expect(Promise.all(checks)).resolves.toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it.each([
    [{ pattern: '(?<=a)b' }, /^schema: pattern at \/pattern cannot be used/],
    [{ type: 'strng' }, /^schema: not a valid JSON schema/],
    [{ $ref: '#/nowhere' }, /^schema: not a valid JSON schema: can't resolve reference/],
  ])('rejects %j with a BadRequest', async (schema, message) => {
    const { code, message: text } = await rejection(checker.check(schema));
    expect(code).toBe('INVALID_REQUEST');
    expect(text).toMatch(message);
  });

  it('checks answers against a schema in its thread: record by record, and a catastrophic pattern in linear time', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } }, required: ['name'] };
    await expect(checker.mismatch(schema, { name: 'aaaa' })).resolves.toBeUndefined();
    await expect(checker.mismatch(schema, { name: `${'a'.repeat(5_000)}!` })).resolves.toBe('data/name must match pattern "^(a+)+$"');
    await expect(checker.mismatch(schema, [{ name: 'a' }, {}])).resolves.toBe("record 2: data must have required property 'name'");
  });
});

describe('createSchemaChecker deadline', () => {
  it('terminates a check past its deadline (a 400) and starts a new thread for the next one', async () => {
    const checker = createSchemaChecker({ workerScript: path.join(__dirname, 'support/silent-worker.js'), timeoutMs: 100 });
    try {
      const [first, second] = await Promise.all([rejection(checker.check({})), rejection(checker.check({}))]);
      expect(first).toEqual({ code: 'INVALID_REQUEST', message: 'schema: could not be checked within 0.1 s; make it smaller' });
      expect(second).toEqual(first);
    } finally {
      await checker.close();
    }
  });

  it('reports an answer it could not check in time as a mismatch saying so, not a failure', async () => {
    const checker = createSchemaChecker({ workerScript: path.join(__dirname, 'support/silent-worker.js'), timeoutMs: 100 });
    try {
      await expect(checker.mismatch({ type: 'object' }, { a: 1 })).resolves.toBe('could not be checked within 0.1 s');
    } finally {
      await checker.close();
    }
  });

  it('refuses checks once closed', async () => {
    const checker = createSchemaChecker({ workerScript: path.join(__dirname, 'support/silent-worker.js'), timeoutMs: 60_000 });
    const pending = rejection(checker.check({}));
    await checker.close();
    expect((await pending).code).toBe('UNAVAILABLE');
    expect((await rejection(checker.check({}))).code).toBe('UNAVAILABLE');
  });
});
