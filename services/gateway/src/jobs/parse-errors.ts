import { AppError, decodeJobError } from '@sitelens/contracts';
import { toAppError } from '../http/errors';

/** What a parse error body reports besides the error (contract "Common shapes"). */
export interface ParseFacts {
  pagesProcessed: number;
  executionTimeMs: number;
  /** The parse job the error belongs to, once there is one. */
  jobId?: string;
}

/**
 * The error with the fields every parse error body carries: `workflow_status: "failed"`,
 * `pages_processed` and `execution_time`. Details already present (a job's own counts) win.
 */
export function parseError(error: unknown, facts: ParseFacts): AppError {
  const base = toAppError(error);
  return new AppError(base.code, base.message, {
    retryable: base.retryable,
    cause: error,
    details: {
      workflow_status: 'failed',
      pages_processed: facts.pagesProcessed,
      execution_time: Math.max(0, Math.round(facts.executionTimeMs)),
      ...(facts.jobId === undefined ? {} : { job_id: facts.jobId }),
      ...base.details,
    },
  });
}

/**
 * A failed parse job's error (`CODE: message` from the worker) as the client sees it. Unknown
 * failures keep a generic message: worker internals stay in the worker's log.
 */
export function parseJobFailure(failedReason: string | undefined, facts: ParseFacts): AppError {
  const { code, message } = decodeJobError(failedReason);
  const known = code !== 'INTERNAL' && code !== 'JOB_FAILED';
  const error = known ? new AppError(code, message) : new AppError(code, 'The parse failed because of an internal error');
  return parseError(error, facts);
}
