/**
 * @sitelens/parse-input: what a parse request asks for, read without the model. The prompt's URLs,
 * crawl or scrape and output format (`analyzePrompt`), and the user's JSON schema checked and
 * compiled (Ajv, patterns on a linear-time engine); `createSchemaChecker` runs that check in a
 * worker thread, off the gateway's event loop. The request's shape and limits are in contracts.
 */
export { analyzePrompt, type ParseAction, type PromptAnalysis } from './analyze-prompt';
export { findUrls, type FoundUrls } from './find-urls';
export { compileUserSchema, isObjectSchema, type CompiledSchema } from './user-schema';
export { schemaMismatch } from './schema-mismatch';
export { checkSchemaLimits } from './schema-limits';
export { createSchemaChecker, SCHEMA_CHECK_TIMEOUT_MS, type SchemaChecker, type SchemaCheckerOptions } from './schema-checker';
export { compileLinearPattern, linearRegExp, MAX_PATTERN_PROGRAM } from './linear-regexp';
