import type { JobState } from 'bullmq';
import { NotFound, screenshotGetQuery, type ScreenshotGetQuery } from '@sitelens/contracts';
import { followJob } from '@sitelens/queue';
import { acceptedStatus } from '../http/accepted-status';
import { defineRoute } from '../http/route';
import { loadJob } from '../jobs/job-access';
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
  async handler({ query, deps, origin, req }) {
    const answer = async ({ job, state }: { job: ScreenshotJob; state: JobState | 'unknown' }) => {
      const view = await viewScreenshotJob(job, state, deps, origin);
      if (view.status === 'processing') {
        return { status: acceptedStatus(req), body: { success: true, job_id: query.job_id, status: 'processing' } };
      }
      return { status: 200, body: { success: view.status === 'completed', job_id: query.job_id, ...view } };
    };
    const load = async () => {
      const found = await loadJob(deps, req, deps.queues.screenshot, query.job_id);
      if (!found || found.job.name !== 'screenshot') {
        throw new NotFound(`Screenshot job ${query.job_id} was not found (unknown or expired)`);
      }
      return { job: found.job as ScreenshotJob, state: found.state };
    };
    if (!query.wait) return answer(await load());
    // Following starts before the first read, so that read sees any end the events could miss and
    // the follower need not read the job again before waiting (one Redis round trip pair fewer).
    const source = { queue: deps.queues.screenshot, events: deps.events.screenshot };
    const follower = followJob(source, query.job_id, {
      waitMs: query.wait * 1000,
      signal: deps.stopping,
      read: (work) => withRedis(deps.redis, work),
      firstRead: false,
    });
    const first = await load().catch((error: unknown) => {
      follower.stop();
      throw error;
    });
    if (first.state === 'completed' || first.state === 'failed') {
      follower.stop();
      return answer(first);
    }
    const end = await follower.done;
    // The follower's last read is the job as it ended: reading it once more would only repeat it.
    if (end.state === 'completed' || end.state === 'failed') return answer({ job: end.job as ScreenshotJob, state: end.state });
    return answer(await load());
  },
});
