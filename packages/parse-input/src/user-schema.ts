import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { BadRequest, errorMessage, type JsonSchema } from '@sitelens/contracts';
import { linearRegExp } from './linear-regexp';
import { checkSchemaLimits } from './schema-limits';

export interface CompiledSchema {
  schema: JsonSchema;
  /** Ajv's validator; after a failed call, `validate.errors` holds the reasons. */
  validate: ValidateFunction;
  /** Human-readable summary of the last validation failure, paths rooted at `data`. */
  describeErrors(errors: ErrorObject[] | null | undefined): string;
}

const AJV_OPTIONS: Options = {
  // Unknown keywords and formats are tolerated (users paste schemas written for other tools),
  // but the schema itself must still pass the meta-schema and compile.
  strict: false,
  allErrors: true,
  logger: false,
  // Patterns (also patternProperties and $data patterns) match in linear time: no ReDoS.
  code: { regExp: linearRegExp },
};

function ajvFor(schema: JsonSchema): Ajv {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  let ajv: Ajv;
  if (dialect === undefined || /draft-0[67]\/schema/.test(dialect)) ajv = new Ajv(AJV_OPTIONS);
  else if (dialect.includes('2019-09')) ajv = new Ajv2019(AJV_OPTIONS);
  else if (dialect.includes('2020-12')) ajv = new Ajv2020(AJV_OPTIONS);
  else {
    throw new BadRequest(`schema: unsupported $schema "${dialect}"; use draft-07, 2019-09 or 2020-12 (or leave $schema out)`);
  }
  addFormats(ajv);
  return ajv;
}

/** Compiled schemas by schema object: a parse job checks its schema before any work and uses it after. */
const compiledSchemas = new WeakMap<JsonSchema, CompiledSchema>();

/**
 * Compiles a user-supplied JSON schema with Ajv (plus ajv-formats). Throws `BadRequest` naming the
 * problem when the value is not an object, fails the meta-schema (`schema/properties/age/type must
 * be ...`) or does not compile (bad regex, unresolvable `$ref`), and when it crosses `SCHEMA_LIMITS`
 * or holds a pattern the linear-time engine cannot run. Never fetches remote schemas.
 * The same schema object is compiled once.
 */
export function compileUserSchema(schema: unknown): CompiledSchema {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new BadRequest('schema: must be a JSON schema object');
  }
  const json = schema as JsonSchema;
  const known = compiledSchemas.get(json);
  if (known) return known;
  checkSchemaLimits(json);
  const ajv = ajvFor(json);

  const valid = ajv.validateSchema(json);
  if (valid !== true) {
    const reasons = ajv.errorsText(ajv.errors, { dataVar: 'schema' });
    throw new BadRequest(`schema: not a valid JSON schema: ${reasons}`);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(json);
  } catch (error) {
    const reason = errorMessage(error);
    throw new BadRequest(`schema: not a valid JSON schema: ${reason}`);
  }
  const compiled: CompiledSchema = {
    schema: json,
    validate,
    describeErrors: (errors) => ajv.errorsText(errors, { dataVar: 'data' }),
  };
  compiledSchemas.set(json, compiled);
  return compiled;
}

/** Whether a schema describes one object (a record), with or without `type: object` spelt out. */
export function isObjectSchema(schema: JsonSchema): boolean {
  if (schema.type === 'object') return true;
  // `type` left out but object keywords present (a common hand-written shape).
  const isRecord = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
  return schema.type === undefined && (isRecord(schema.properties) || Array.isArray(schema.required));
}
