export { analyzePrompt, type ParseAction, type PromptAnalysis } from './analyze-prompt';
export { findUrls, type FoundUrls } from './find-urls';
export { parseRequest, OUTPUT_FORMATS, PARSE_LIMITS, type OutputFormat, type ParseRequest } from './parse-request';
export { compileUserSchema, type CompiledSchema, type JsonSchema } from './user-schema';
export { checkSchemaLimits, checkSchemaShape, SCHEMA_LIMITS } from './schema-limits';
export { createSchemaChecker, SCHEMA_CHECK_TIMEOUT_MS, type SchemaChecker, type SchemaCheckerOptions } from './schema-checker';
export { compileLinearPattern, linearRegExp, MAX_PATTERN_PROGRAM } from './linear-regexp';
export {
  createModelClient,
  isModelConfigured,
  modelNotConfigured,
  emptyUsage,
  addUsage,
  type ModelClient,
  type ModelClientConfig,
  type ModelClientDeps,
  type ModelRequest,
  type ModelReply,
  type TokenUsage,
} from './model-client';
export { backoffDelay, classifyModelError, DEFAULT_RETRY_BASE_DELAY_MS, RETRY_JITTER } from './retry';
export {
  extractFromPages,
  type ExtractInput,
  type ExtractOptions,
  type ExtractResult,
  type PageInput,
  type PageResult,
} from './extract';
export { createTokenCounter, sharedTokenCounter, preparePage, DEFAULT_TOKEN_BUDGET, type TokenCounter, type TokenBudget } from './tokens';
export { mergeValues, combinePageResults, dedupe, hasMeaningfulData } from './merge';
export { parseModelJson } from './model-json';
export { toProviderSchema, unwrapProviderResult } from './provider-schema';
export { formatOutput, toCsv, toJson, toMarkdown, toTable, flattenRecord } from './format';
export { parseTemplates, parseExamples, type ParseTemplates, type ParseExamples, type ParseExample } from './templates';
