import { Redis, type RedisOptions } from 'ioredis';

/**
 * Two kinds of Redis connection:
 * - `worker`: waits for Redis forever (BullMQ workers must, or blocking commands break);
 * - `client`: fails fast, for HTTP request paths that should answer 503 rather than hang.
 */
export function createRedis(url: string, kind: 'worker' | 'client', extra: RedisOptions = {}): Redis {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    ...extra,
  };
  if (kind === 'worker') {
    return new Redis(url, { ...common, maxRetriesPerRequest: null, enableReadyCheck: true });
  }
  return new Redis(url, { ...common, maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

/** Resolves true when Redis answers PING within `timeoutMs`. Never throws. */
export async function pingRedis(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const answer = await Promise.race([redis.ping().then((r) => r === 'PONG'), timeout]);
    return answer;
  } catch {
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}
