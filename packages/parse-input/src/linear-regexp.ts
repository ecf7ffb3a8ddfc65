import { RE2JS } from 're2js';
import type { RegExpEngine } from 'ajv/dist/types';

/**
 * Schema `pattern`s and `patternProperties` run on RE2 (re2js, pure JS): matching time is linear
 * in the input, so `^(a+)+$` cannot hold a worker. RE2 refuses what it cannot run in linear time
 * (backreferences, lookaround) and programs past its size limits, with a syntax error.
 */

/** Compiled RE2 program instructions one pattern may have: `\w{1000}` is about 1,000. */
export const MAX_PATTERN_PROGRAM = 5_000;

export class PatternError extends Error {}

/** Compiles an ECMAScript pattern for RE2; throws `PatternError` saying why it cannot run. */
export function compileLinearPattern(pattern: string): RE2JS {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PatternError(`${reason} (patterns run on a linear-time engine: no backreferences or lookaround)`);
  }
  if (compiled.programSize() > MAX_PATTERN_PROGRAM) {
    throw new PatternError(`is too complex (more than ${MAX_PATTERN_PROGRAM} steps once compiled)`);
  }
  return compiled;
}

/** Ajv's `code.regExp` option: every pattern Ajv compiles or reads from `$data` runs on RE2. */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string) => compileLinearPattern(pattern), {
  code: 'linearRegExp',
});
