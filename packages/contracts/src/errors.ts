/**
 * The service's error vocabulary. Every error a client can see carries a stable UPPER_SNAKE code;
 * `ERROR_CODES` is the one place that maps a code to an HTTP status (`AppError.status`).
 */
export const ERROR_CODES = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  PLAN_LIMIT: 403,
  URL_BLOCKED: 403,
  ROBOTS_DISALLOWED: 403,
  URL_EXPIRED: 403,
  SIGNATURE_INVALID: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UPSTREAM_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  PAGE_CRASHED: 422,
  SELECTOR_NOT_FOUND: 422,
  CONTENT_TOO_COMPLEX: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  LLM_ERROR: 500,
  LLM_NOT_CONFIGURED: 500,
  UPSTREAM_ERROR: 502,
  UNAVAILABLE: 503,
  JOB_FAILED: 500,
  NAVIGATION_FAILED: 502,
  JOB_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  success: false;
  error: string;
  code: ErrorCode;
}

export interface AppErrorOptions {
  /** Whether running the same work again may succeed (infrastructure trouble, not bad input). */
  retryable?: boolean;
  /** Extra fields merged into the response body (e.g. parse's workflow_status). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  toBody(): ErrorBody & Record<string, unknown> {
    return { success: false, error: this.message, code: this.code, ...this.details };
  }
}

export class BadRequest extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('INVALID_REQUEST', message, options);
  }
}

export class NotFound extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('NOT_FOUND', message, options);
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Invalid or missing API key', options?: AppErrorOptions) {
    super('UNAUTHORIZED', message, options);
  }
}

export class PlanLimit extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('PLAN_LIMIT', message, options);
  }
}

export class RateLimited extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, options?: AppErrorOptions) {
    super('RATE_LIMITED', message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * What a client is told about every address refusal, whatever the reason: a loopback answer, a
 * private range and a name that does not resolve read alike, so refusals map nothing of the
 * inside (the log keeps the reason).
 */
export const URL_BLOCKED_MESSAGE = 'The URL resolves to an address this service may not reach';

/** Marks the egress proxy's own refusals, so the browser layer can tell them from a site's 403. */
export const EGRESS_REFUSAL_HEADER = 'x-sitelens-egress';

export class UrlBlocked extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('URL_BLOCKED', message, options);
  }
}

export class Unavailable extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('UNAVAILABLE', message, { retryable: true, ...options });
  }
}

export class Unprocessable extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('UNPROCESSABLE', message, options);
  }
}

export class TimeoutError extends AppError {
  constructor(message: string, options?: AppErrorOptions) {
    super('TIMEOUT', message, options);
  }
}

/** The error parse answers when no model is configured, naming the settings to set. */
export function modelNotConfigured(): AppError {
  return new AppError(
    'LLM_NOT_CONFIGURED',
    'No language model is configured: set LLM_MODEL, and OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (any OpenAI-compatible server such as Ollama, vLLM or LiteLLM)',
  );
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** The message of anything thrown (an Error's message, anything else as text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Errors cross the queue as plain data (BullMQ keeps a message string). A job failure is stored as
 * `CODE: message` so the gateway can rebuild the client-facing error without parsing prose.
 */
export function encodeJobError(error: unknown): string {
  if (isAppError(error)) return `${error.code}: ${error.message}`;
  return `INTERNAL: ${errorMessage(error)}`;
}

export function decodeJobError(failedReason: string | undefined): { code: ErrorCode; message: string } {
  const text = failedReason ?? '';
  const match = /^([A-Z_]+): ([\s\S]*)$/.exec(text);
  if (match && match[1] && match[1] in ERROR_CODES) {
    return { code: match[1] as ErrorCode, message: match[2] ?? '' };
  }
  return { code: 'JOB_FAILED', message: text || 'The job failed' };
}

/**
 * A job's failure as a client may see it: an unexpected error keeps its code but not its text
 * (an exception message, a stack detail), which stays in the worker's log.
 */
export function publicJobError(failedReason: string | undefined): { code: ErrorCode; message: string } {
  const decoded = decodeJobError(failedReason);
  return decoded.code === 'INTERNAL' ? { code: 'INTERNAL', message: 'Internal server error' } : decoded;
}
