import type { Job } from 'bullmq';
import {
  AppError,
  contentScopeOf,
  encodeJobError,
  isAppError,
  pageContextOf,
  publicJobError,
  type CrawlJobRequest,
  type CrawlJobResult,
} from '@sitelens/contracts';
import { isLastAttempt } from '@sitelens/queue';
import { saveJobResult } from '@sitelens/storage';
import { crawl } from '@sitelens/web';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from './job-handler';
import { CrawlProgressWriter } from './crawl-progress';
import { jobRequest } from './job-request';
import { blobPageCache } from './page-cache';
import { crawlEventStream, crawlEventsOf, notifyCrawlWebhook } from './crawl-webhook';

/** Whether this failure ends the job (the worker retries only retryable AppErrors). */
function isFinalFailure(job: Pick<Job, 'attemptsMade' | 'opts'>, error: unknown): boolean {
  const retryable = isAppError(error) && error.retryable;
  return !retryable || isLastAttempt(job);
}

/**
 * `crawl` jobs: the web layer's crawler from the request's start page, statistics written as job
 * progress while it runs, the lookup's `data` as the result (saved to the blob store, page bodies
 * within the configured byte caps), and the optional webhook once the job has ended. Per-page failures are part of the result; the job fails only when the start URL
 * is refused or the crawl outlives its time budget.
 */
export function createCrawlHandler(context: ParseWorkerContext): ParseJobHandler<'crawl'> {
  return async (job, logger) => {
    const { timeoutSeconds } = job.data;
    const request = jobRequest<CrawlJobRequest>(job.data, 'crawl');
    const progress = new CrawlProgressWriter(job);
    const signal = AbortSignal.timeout(timeoutSeconds * 1000);
    const cancel = await context.crawlCancels.watch(String(job.id));
    const events = crawlEventsOf(request);
    const stream = crawlEventStream(request, context, logger, job.data.owner);
    // Once per crawl: not again when a retry runs it, not for a crawl cancelled before it began.
    if (events.has('crawl.started') && job.attemptsMade === 0 && !cancel.signal.aborted) {
      await stream?.push({ event: 'crawl.started', job_id: job.id, type: 'crawl', status: 'processing', url: request.url });
    }
    try {
      const result: CrawlJobResult = await crawl(
        {
          url: request.url,
          depth: request.depth,
          limit: request.link_limit,
          format: request.format,
          includeHtml: request.include_html,
          includeSubdomains: request.include_subdomains,
          patterns: request.patterns,
          // Jobs queued before exclude_patterns existed have none.
          excludePatterns: request.exclude_patterns ?? [],
          maxPageBytes: context.config.results.pageMaxBytes,
          maxResultBytes: context.config.results.jobMaxBytes,
          renderJs: request.render_js ?? 'auto',
          concurrency: context.config.crawlConcurrency,
          // A crawl is one site: its robots.txt crawl-delay, when set, brings this down to one at a time.
          perHostConcurrency: context.config.crawlConcurrency,
          signal,
          stopSignal: cancel.signal,
          context: pageContextOf(request),
          scope: contentScopeOf(request),
          // max_age: pages fetched that recently (by this key, with these options) are reused.
          pageCache:
            request.max_age === undefined
              ? undefined
              : blobPageCache(context.store, {
                  owner: job.data.owner,
                  variant: [
                    request.format,
                    request.include_html,
                    request.render_js ?? 'auto',
                    contentScopeOf(request),
                    pageContextOf(request) ?? null,
                  ],
                  maxAgeSeconds: request.max_age,
                  keepHtml: request.include_html || request.format === 'html',
                }),
          onProgress: (statistics) => progress.report(statistics),
          ...(events.has('crawl.page')
            ? {
                onPage: ({ url, depth, page }) =>
                  stream?.push({ event: 'crawl.page', job_id: job.id, type: 'crawl', status: 'processing', url, depth, data: page }),
              }
            : {}),
        },
        { ...context.web, logger },
      );
      await progress.stop();
      logger.info({ statistics: result.statistics, cancelled: result.cancelled === true }, 'crawl finished');
      // The result goes to the blob store; Redis keeps the reference only.
      const stored = await saveJobResult(context.store, job.id, result);
      notifyCrawlWebhook(
        job,
        request,
        { status: result.cancelled ? 'cancelled' : 'completed', data: result },
        context,
        logger,
        job.data.owner,
        // The end comes after the page events still on their way.
        stream?.drained(),
      );
      return stored;
    } catch (caught) {
      await progress.stop();
      const error = signal.aborted ? new AppError('JOB_TIMEOUT', `The crawl did not finish within ${timeoutSeconds} s`) : caught;
      if (isFinalFailure(job, error)) {
        // Internal details stay in the log, as in the lookup's answer.
        const { code, message } = publicJobError(encodeJobError(error));
        notifyCrawlWebhook(job, request, { status: 'failed', error: message, code }, context, logger, job.data.owner, stream?.drained());
      }
      throw error;
    } finally {
      cancel.release();
    }
  };
}
