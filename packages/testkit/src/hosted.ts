import { getJson } from './test-gateway';

/** A cheap authenticated call: an unknown screenshot job (404, but counted like any request). */
export function probe(origin: string, key?: string) {
  return getJson(`${origin}/v1/screenshots?job_id=no-such-job`, key === undefined ? {} : { authorization: `Bearer ${key}` });
}

export function rateHeaders(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: headers.get('x-ratelimit-reset'),
    retryAfter: headers.get('retry-after'),
  };
}

export { deletePrefix } from './redis-server';

export async function eventually(check: () => Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}
