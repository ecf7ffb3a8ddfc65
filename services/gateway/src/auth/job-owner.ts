import { isPlanName, type JobEnvelope } from '@sitelens/contracts';
import type { Authenticated } from './plan-limits';

/**
 * Who a job belongs to, for its envelope: the calling key and its plan in hosted mode (the plan's
 * `runningJobs` caps the key's jobs running at once); nothing locally, where jobs are uncapped.
 */
export function jobOwnerOf(request: Authenticated): Pick<JobEnvelope, 'owner' | 'plan'> {
  const auth = request.auth;
  if (!auth) return {};
  return isPlanName(auth.plan) ? { owner: auth.keyId, plan: auth.plan } : { owner: auth.keyId };
}
