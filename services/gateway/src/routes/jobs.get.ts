import { z } from 'zod';
import { JOB_TYPES, NotFound, type JobType } from '@sitelens/contracts';
import { defineRoute } from '../http/route';
import { findVisibleJob } from '../jobs/job-access';
import { JOB_RENDERERS, renderGenericJob } from '../jobs/job-renderers';

const params = z.object({ job_id: z.string().trim().min(1).max(200) });

export const jobsGet = defineRoute<undefined, undefined, z.infer<typeof params>>({
  method: 'get',
  paths: ['/v1/crawl/:job_id', '/api/v1/crawl/:job_id'],
  summary: 'Look up any job (crawl, screenshot, ...) by id',
  tag: 'Jobs',
  params,
  async handler({ params, deps, origin, req }) {
    const found = await findVisibleJob(deps, req, params.job_id);
    if (!found) throw new NotFound(`Job ${params.job_id} was not found (unknown or expired)`);
    const { job, state } = found;
    const type = (JOB_TYPES as readonly string[]).includes(job.name) ? (job.name as JobType) : undefined;
    const render = (type && JOB_RENDERERS[type]) ?? renderGenericJob;
    const view = await render(job, state, deps, origin);
    return { status: 200, body: { job_id: params.job_id, type: job.name, ...view } };
  },
});
