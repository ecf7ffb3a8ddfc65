export {
  createModelClient,
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
export { extractFromPages, type ExtractInput, type ExtractOptions, type ExtractResult, type PageInput, type PageResult } from './extract';
export { createTokenCounter, sharedTokenCounter, preparePage, DEFAULT_TOKEN_BUDGET, type TokenCounter, type TokenBudget } from './tokens';
export { mergeValues, combinePageResults, dedupe, hasMeaningfulData } from './merge';
export { parseModelJson } from './model-json';
export { toProviderSchema, unwrapProviderResult } from './provider-schema';
export { formatOutput, toCsv, toJson, toMarkdown, toTable, flattenRecord } from './format';
