/** Retry policy for model calls: what is worth another attempt, and how long to wait before it. */

export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** Upper bound of the random extra added to each wait, as a share of that wait. */
export const RETRY_JITTER = 0.25;

/**
 * Wait before retry number `retry` (1 for the first retry): `base * 2^(retry-1)` plus up to 25%
 * of that. Each wait is therefore at least double the one before it without its jitter, and
 * always longer than the previous wait itself.
 */
export function backoffDelay(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  const base = baseDelayMs * 2 ** (retry - 1);
  return Math.round(base + base * RETRY_JITTER * Math.min(Math.max(random(), 0), 1));
}

export type FailureKind = 'timeout' | 'rate_limited' | 'server_error' | 'connection' | 'rejected' | 'invalid_answer';

export interface ModelFailure {
  kind: FailureKind;
  retryable: boolean;
  status?: number;
  /** Short reason for logs and the final error message; never the request or the answer. */
  reason: string;
}

function statusOf(error: unknown): number | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(error: unknown): string {
  // Providers echo (partly masked) keys in 401 messages; keep them out of errors and logs.
  const text = (error instanceof Error ? error.message : String(error)).replace(/\b(sk|key)-[\w*-]{6,}/gi, '[redacted]');
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN']);

function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.constructor.name === 'APIConnectionError' || error.name === 'TimeoutError') return true;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' && CONNECTION_CODES.has(cause.code);
}

/**
 * Timeouts (our per-attempt cut-off), 429, 5xx and dropped connections are retryable; any other
 * answer from the provider (400 bad request, 401 key, 404 model) fails at once.
 */
export function classifyModelError(error: unknown, timedOut: boolean): ModelFailure {
  if (timedOut) return { kind: 'timeout', retryable: true, reason: 'the model did not answer in time' };
  const status = statusOf(error);
  if (status === 429) return { kind: 'rate_limited', retryable: true, status, reason: `HTTP 429: ${messageOf(error)}` };
  if (status !== undefined && status >= 500) {
    return { kind: 'server_error', retryable: true, status, reason: `HTTP ${status}: ${messageOf(error)}` };
  }
  if (status === 408) return { kind: 'timeout', retryable: true, status, reason: `HTTP 408: ${messageOf(error)}` };
  if (status !== undefined) return { kind: 'rejected', retryable: false, status, reason: `HTTP ${status}: ${messageOf(error)}` };
  if (isConnectionError(error)) return { kind: 'connection', retryable: true, reason: messageOf(error) };
  return { kind: 'invalid_answer', retryable: false, reason: messageOf(error) };
}
