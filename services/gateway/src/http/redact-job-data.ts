/** Fields of job data that hold a client's secrets (webhook_headers carry their receivers' tokens). */
const SECRET_FIELD =
  /^(webhook_headers|headers|http_auth|auth|authorization|proxy|password|cookies?|secret|token|api_key|webhook_secret)$/i;

export const REDACTED = '[redacted]';

/**
 * Job data as the queue dashboard may show it: the same shape, with every secret-bearing field
 * (at any depth) replaced by `[redacted]`. Never changes the job itself.
 */
export function redactJobData(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(redactJobData);
  if (data === null || typeof data !== 'object') return data;
  return Object.fromEntries(
    Object.entries(data as Record<string, unknown>).map(([name, value]) => [
      name,
      SECRET_FIELD.test(name) && value !== undefined ? REDACTED : redactJobData(value),
    ]),
  );
}
