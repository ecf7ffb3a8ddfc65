import type { Redis } from 'ioredis';
import { Unavailable, isAppError, timeLimit } from '@sitelens/contracts';

/**
 * Runs a queue/Redis operation for a request. When Redis is not connected the request gets a 503
 * at once instead of waiting on reconnects; a Redis error mid-call is a 503 too.
 */
export async function withRedis<T>(redis: Redis, operation: () => Promise<T>, timeoutMs = 3_000, subject = 'The job queue'): Promise<T> {
  if (redis.status !== 'ready') throw new Unavailable(`${subject} is unavailable (Redis is not reachable)`);
  try {
    return await timeLimit(operation(), timeoutMs, () => new Unavailable(`${subject} did not answer in time`));
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new Unavailable(`${subject} is unavailable (Redis is not reachable)`, { cause: error });
  }
}
