import { AppError } from '@sitelens/contracts';

/** The AppError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function appErrorFrom(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the promise to reject with an AppError');
}
