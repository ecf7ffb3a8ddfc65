import { isObjectSchema, type CompiledSchema } from './user-schema';

/**
 * Why `data` does not match the user's schema, or undefined when it does. A schema describing one
 * record, met by a list of records (one per page), is checked record by record: checked whole, a
 * list would pass a schema that leaves out `type: object` without any record being looked at.
 */
export function schemaMismatch(compiled: CompiledSchema, data: unknown): string | undefined {
  // Ajv's validate is a type guard; as a plain boolean it narrows nothing.
  const problems = (value: unknown): string | undefined => {
    try {
      return compiled.validate(value) ? undefined : compiled.describeErrors(compiled.validate.errors);
    } catch {
      // A recursive schema ($ref: '#') over an answer nested past the stack: a mismatch, not a crash.
      return 'could not be checked (nested too deeply)';
    }
  };
  if (!Array.isArray(data) || !isObjectSchema(compiled.schema)) return problems(data);
  const failing = data.flatMap((record, index) => {
    const reason = problems(record);
    return reason === undefined ? [] : [`record ${index + 1}: ${reason}`];
  });
  return failing.length === 0 ? undefined : failing.join('; ');
}
