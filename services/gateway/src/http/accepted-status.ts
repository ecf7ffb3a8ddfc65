import type { Request } from 'express';

/**
 * The status of "job accepted" and "still processing" answers: 202, except for the Supacrawler
 * Python SDK. Its generated client (openapi-python-client on httpx, which sends
 * `Accept: application/json` on every call) reads a body only from the 200 its engine answered
 * with, so a 202 leaves its users without the job id (create) or the status (get). That client
 * gets 200 with the same body; everyone else gets the contract's 202.
 */
export function acceptedStatus(req: Request): 200 | 202 {
  const agent = req.get('user-agent') ?? '';
  const accept = (req.get('accept') ?? '').trim().toLowerCase();
  return agent.startsWith('python-httpx/') && accept === 'application/json' ? 200 : 202;
}
