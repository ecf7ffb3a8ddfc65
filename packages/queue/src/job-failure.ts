import { UnrecoverableError, type Job } from 'bullmq';
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

/** Whether the running attempt is the job's last (BullMQ counts the attempts made before it). */
export function isLastAttempt(job: Pick<Job, 'attemptsMade' | 'opts'>): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
