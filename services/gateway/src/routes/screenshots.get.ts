import { NotFound, screenshotGetQuery, type ScreenshotGetQuery } from '@sitelens/contracts';
import { defineRoute } from '../http/route';
import { waitForJobEnd } from '../jobs/job-waiter';
import { withRedis } from '../jobs/redis-guard';
import { viewScreenshotJob, type ScreenshotJob } from '../jobs/screenshot-view';

export const screenshotsGet = defineRoute<undefined, ScreenshotGetQuery>({
  method: 'get',
  paths: ['/v1/screenshots', '/api/v1/screenshots'],
  summary:
    'Get a screenshot job: 202 while processing, 200 failed, or 200 completed with a signed image URL valid 15 minutes. ' +
    'Optional wait=<1..60> holds the request until the job ends or the wait passes.',
  tag: 'Screenshots',
  query: screenshotGetQuery,
  async handler({ query, deps, origin }) {
    const queue = deps.queues.screenshot;
    const load = async () => {
      const job = (await withRedis(deps.redis, () => queue.getJob(query.job_id))) as ScreenshotJob | undefined;
      if (!job || job.name !== 'screenshot') {
        throw new NotFound(`Screenshot job ${query.job_id} was not found (unknown or expired)`);
      }
      return job;
    };
    let job = await load();
    if (query.wait) {
      await waitForJobEnd(job, deps.events.screenshot, query.wait * 1000, deps.stopping);
      job = await load();
    }
    const state = await withRedis(deps.redis, () => job.getState());
    const view = await viewScreenshotJob(job, state, deps, origin);
    if (view.status === 'processing') {
      return { status: 202, body: { success: true, job_id: query.job_id, status: 'processing' } };
    }
    return { status: 200, body: { success: view.status === 'completed', job_id: query.job_id, ...view } };
  },
});
