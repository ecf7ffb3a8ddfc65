import { BadRequest, type ParseQueuePayload } from '@sitelens/contracts';

/**
 * The request a scrape, crawl or map job carries. The gateway validated it against the contract's
 * schema; this only guards the shape, so a malformed job fails with a clear message.
 */
export function jobRequest<T extends { url: string }>(data: ParseQueuePayload, kind: 'scrape' | 'crawl' | 'map'): T {
  const request = data.request as T | undefined;
  if (!request || typeof request.url !== 'string') throw new BadRequest(`The ${kind} job carries no request`);
  return request;
}
