import type { Request } from 'express';
import type { Queue } from 'bullmq';
import type { JobEnvelope } from '@sitelens/contracts';
import { findJob, readJob, type JobSnapshot } from '@sitelens/queue';
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

/** One job of `queue` and its state, when it exists and the caller may see it. */
export async function loadJob(
  deps: Pick<GatewayDeps, 'redis' | 'config'>,
  req: Request,
  queue: Pick<Queue, 'getJob'>,
  id: string,
): Promise<JobSnapshot | undefined> {
  const snapshot = await withRedis(deps.redis, () => readJob(queue, id));
  return snapshot && visibleTo(snapshot, req, deps) ? snapshot : undefined;
}

/** A job of any queue by id, when it exists and the caller may see it. */
export async function findVisibleJob(
  deps: Pick<GatewayDeps, 'redis' | 'config' | 'allQueues'>,
  req: Request,
  id: string,
): Promise<JobSnapshot | undefined> {
  const found = await withRedis(deps.redis, () => findJob(deps.allQueues, id));
  return found && visibleTo(found, req, deps) ? found : undefined;
}
