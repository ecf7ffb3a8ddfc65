/** Whether a model and an endpoint (a key for OpenAI, or a base URL) are set in `config.llm`. */
export function isModelConfigured(llm: { apiKey?: string | undefined; baseUrl?: string | undefined; model?: string | undefined }): boolean {
  return Boolean(llm.model && (llm.apiKey || llm.baseUrl));
}
