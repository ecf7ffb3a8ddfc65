import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ScreenshotCreateRequest, ScreenshotJobResult } from '@sitelens/contracts';

/**
 * `cache_ttl`: an identical screenshot request by the same key within the TTL completes at once
 * with the image already stored. Two kinds of small records:
 * - `<prefix>:shot-cache:<hash>`: the result of the last capture of a request (storage key, type,
 *   metadata), written by the worker when the job completes, expiring after its cache_ttl (never
 *   past job retention, when the image itself is swept);
 * - `<prefix>:shot-hit:<job id>`: a job answered from the cache, read by GET as a completed job,
 *   expiring with job retention like any job.
 */

/** Fields that do not change the image: left out of the request's identity. */
const NOT_IDENTITY = new Set(['cache_ttl', 'stream', 'webhook_url', 'webhook_headers', 'timeout']);

/** JSON with object keys sorted at every level: the same request always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The identity of a request for `owner` (the API key id; none locally). */
export function screenshotCacheKey(owner: string | undefined, request: ScreenshotCreateRequest): string {
  const identity = Object.fromEntries(Object.entries(request).filter(([field]) => !NOT_IDENTITY.has(field)));
  return createHash('sha256')
    .update(`${owner ?? ''}\n${canonical(identity)}`)
    .digest('base64url');
}

/** A job answered from the cache, as GET shows it. */
export interface ScreenshotCacheHit {
  owner?: string;
  /** Absent for rendered `html`. */
  url?: string;
  acceptedAt: number;
  result: ScreenshotJobResult;
}

export class ScreenshotCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private entryKey(hash: string): string {
    return `${this.prefix}:shot-cache:${hash}`;
  }

  private hitKey(jobId: string): string {
    return `${this.prefix}:shot-hit:${jobId}`;
  }

  async get(hash: string): Promise<ScreenshotJobResult | undefined> {
    const text = await this.redis.get(this.entryKey(hash));
    return text ? (JSON.parse(text) as ScreenshotJobResult) : undefined;
  }

  /** Keeps a completed capture for `ttlSeconds`, at most `retentionSeconds` less a minute (the image's own lifetime). */
  async put(hash: string, result: ScreenshotJobResult, ttlSeconds: number, retentionSeconds: number): Promise<void> {
    const seconds = Math.min(ttlSeconds, retentionSeconds - 60);
    if (seconds <= 0) return;
    await this.redis.set(this.entryKey(hash), JSON.stringify(result), 'EX', seconds);
  }

  async recordHit(jobId: string, hit: ScreenshotCacheHit, retentionSeconds: number): Promise<void> {
    await this.redis.set(this.hitKey(jobId), JSON.stringify(hit), 'EX', Math.max(60, retentionSeconds));
  }

  async hit(jobId: string): Promise<ScreenshotCacheHit | undefined> {
    const text = await this.redis.get(this.hitKey(jobId));
    return text ? (JSON.parse(text) as ScreenshotCacheHit) : undefined;
  }
}
