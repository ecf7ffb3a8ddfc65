import type { Job } from 'bullmq';
import type { JobResult, ParseQueueJobName, ParseQueuePayload } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';

/**
 * One kind of work on the parse queue, registered by job name; its result is the job map's for that
 * name. The payload arrives as stored in Redis, so each handler checks the fields it reads.
 */
export type ParseJobHandler<N extends ParseQueueJobName = ParseQueueJobName> = (
  job: Job<ParseQueuePayload, unknown, ParseQueueJobName>,
  logger: Logger,
) => Promise<JobResult<N>>;

export type ParseJobHandlers = { [N in ParseQueueJobName]?: ParseJobHandler<N> };
