import { UnrecoverableError } from 'bullmq';
import { encodeJobError, isAppError } from '@sitelens/contracts';

/**
 * What a processor throws when work fails: a plain Error (BullMQ retries it) when the
 * infrastructure failed and another attempt may help, an UnrecoverableError when the page or the
 * request is the problem. The text carries the error code for the gateway (`CODE: message`).
 */
export function toJobFailure(error: unknown): Error {
  const message = encodeJobError(error);
  return isAppError(error) && error.retryable ? new Error(message) : new UnrecoverableError(message);
}
