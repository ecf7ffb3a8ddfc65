import type { Request } from 'express';
import type { Job, Queue } from 'bullmq';
import { QUEUES, type JobEnvelope } from '@sitelens/contracts';
import { ScreenshotCache, findJob, readJob, type JobSnapshot } from '@sitelens/queue';
import type { GatewayDeps } from '../deps';
import { withRedis } from './redis-guard';

/**
 * In hosted mode a job is visible only to the key that created it: another key sees the same 404
 * as for an unknown id, so job ids leak nothing. Locally (no keys) every job is visible.
 */
function visibleTo(snapshot: JobSnapshot, req: Request, deps: Pick<GatewayDeps, 'config'>): boolean {
  if (deps.config.mode !== 'hosted') return true;
  const owner = (snapshot.job.data as Partial<JobEnvelope> | undefined)?.owner;
  return owner === undefined || owner === req.auth?.keyId;
}

/**
 * A screenshot job answered from the cache (`cache_ttl`) never went through the queue: it is read
 * from its hit record as a completed screenshot job.
 */
async function cachedScreenshot(deps: Pick<GatewayDeps, 'redis' | 'config'>, id: string): Promise<JobSnapshot | undefined> {
  const hit = await withRedis(deps.redis, () => new ScreenshotCache(deps.redis, deps.config.redis.prefix).hit(id));
  if (!hit) return undefined;
  const job = {
    id,
    name: 'screenshot',
    data: { request: { url: hit.url }, owner: hit.owner, acceptedAt: hit.acceptedAt },
    returnvalue: hit.result,
    timestamp: hit.acceptedAt,
    finishedOn: hit.acceptedAt,
  } as unknown as Job;
  return { job, state: 'completed' };
}

/** One job of `queue` and its state, when it exists and the caller may see it. */
export async function loadJob(
  deps: Pick<GatewayDeps, 'redis' | 'config'>,
  req: Request,
  queue: Pick<Queue, 'getJob' | 'name'>,
  id: string,
): Promise<JobSnapshot | undefined> {
  const snapshot =
    (await withRedis(deps.redis, () => readJob(queue, id))) ??
    (queue.name === QUEUES.screenshot ? await cachedScreenshot(deps, id) : undefined);
  return snapshot && visibleTo(snapshot, req, deps) ? snapshot : undefined;
}

/** A job of any queue by id, when it exists and the caller may see it. */
export async function findVisibleJob(
  deps: Pick<GatewayDeps, 'redis' | 'config' | 'allQueues'>,
  req: Request,
  id: string,
): Promise<JobSnapshot | undefined> {
  const found = (await withRedis(deps.redis, () => findJob(deps.allQueues, id))) ?? (await cachedScreenshot(deps, id));
  return found && visibleTo(found, req, deps) ? found : undefined;
}
