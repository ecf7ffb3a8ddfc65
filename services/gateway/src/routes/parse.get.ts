import { z } from 'zod';
import { defineRoute } from '../http/route';
import { viewParseJob } from '../jobs/parse-view';

const params = z.object({ job_id: z.string().trim().min(1).max(200) });

export const parseGet = defineRoute<undefined, undefined, z.infer<typeof params>>({
  method: 'get',
  paths: ['/v1/parse/:job_id', '/api/v1/parse/:job_id'],
  summary:
    'Follow a parse job (async: true): 202 with workflow_status and pages_processed while it runs, ' +
    '200 with the full response once completed, 200 with the error body once failed',
  tag: 'Parse',
  params,
  async handler({ params, deps, req }) {
    return viewParseJob(deps, req, params.job_id);
  },
});
