import type { ParseQueueJobName } from '@sitelens/contracts';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from '../main';

/**
 * The parse queue's job kinds and their handlers. Each kind lives in its own file in this folder
 * and is registered here by job name.
 */
export function createParseHandlers(_context: ParseWorkerContext): Partial<Record<ParseQueueJobName, ParseJobHandler>> {
  return {};
}
