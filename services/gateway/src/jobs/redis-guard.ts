import type { Redis } from 'ioredis';
import { Unavailable, isAppError } from '@sitelens/contracts';

/**
 * Runs a queue/Redis operation for a request. When Redis is not connected the request gets a 503
 * at once instead of waiting on reconnects; a Redis error mid-call is a 503 too.
 */
export async function withRedis<T>(redis: Redis, operation: () => Promise<T>, timeoutMs = 3_000, subject = 'The job queue'): Promise<T> {
  if (redis.status !== 'ready') throw new Unavailable(`${subject} is unavailable (Redis is not reachable)`);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      operation(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Unavailable(`${subject} did not answer in time`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new Unavailable(`${subject} is unavailable (Redis is not reachable)`, { cause: error });
  } finally {
    if (timer) clearTimeout(timer);
  }
}
