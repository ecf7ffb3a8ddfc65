import { z } from 'zod';
import { defineRoute } from '../http/route';
import { viewParseJob } from '../jobs/parse-view';

const query = z.object({ job_id: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long') });

/** The query form of the parse job lookup, as the Supacrawler JS client calls it. */
export const parseLookupGet = defineRoute<undefined, z.infer<typeof query>>({
  method: 'get',
  paths: ['/v1/parse', '/api/v1/parse'],
  summary: 'Follow a parse job by ?job_id= (same answers as GET /v1/parse/{job_id})',
  tag: 'Parse',
  query,
  async handler({ query, deps, req }) {
    return viewParseJob(deps, req, query.job_id);
  },
});
