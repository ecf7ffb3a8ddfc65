import { BadRequest, checkSchemaShape } from '@sitelens/contracts';
import { compileLinearPattern, PatternError } from './linear-regexp';

/**
 * `checkSchemaShape`, then each `pattern` and `patternProperties` name compiled on the linear-time
 * engine, before Ajv sees the schema. Throws `BadRequest` naming the limit crossed, or the pattern
 * (as a JSON pointer) that cannot run.
 */
export function checkSchemaLimits(schema: object): void {
  for (const { pattern, path } of checkSchemaShape(schema)) {
    try {
      compileLinearPattern(pattern);
    } catch (error) {
      const reason = error instanceof PatternError ? error.message : String(error);
      throw new BadRequest(`schema: pattern at ${path} cannot be used: ${reason}`, { details: { field: 'schema', pointer: path } });
    }
  }
}
