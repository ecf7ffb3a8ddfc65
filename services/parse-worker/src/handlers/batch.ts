import { urlPolicyOf } from '@sitelens/egress';
import {
  AppError,
  contentScopeOf,
  encodeJobError,
  errorMessage,
  isAppError,
  pageContextOf,
  publicJobError,
  type BatchData,
  type BatchPageResult,
  type BatchScrapeRequest,
  type BatchWebhookEvent,
} from '@sitelens/contracts';
import { JobEvents, isLastAttempt, sendJobWebhook } from '@sitelens/queue';
import { saveJobResult } from '@sitelens/storage';
import { ByteBudget, scrapeUrl } from '@sitelens/web';
import type { ParseWorkerContext } from '../context';
import { CrawlProgressWriter } from './crawl-progress';
import type { ParseJobHandler } from './job-handler';

/**
 * `batch` jobs: every URL of the request scraped as GET /v1/scrape would (a few at a time, each
 * within the request's timeout), the answers in the order of `urls`, a failed page as its error.
 * Progress (pages done) is written as the job runs; the result goes to the blob store, page bodies
 * within RESULT_PAGE_MAX_BYTES and the whole within RESULT_MAX_BYTES. Webhook: `batch.page` per
 * page when asked, then `batch.completed` (or `batch.failed`), in order and signed.
 */
export function createBatchHandler(context: ParseWorkerContext): ParseJobHandler<'batch'> {
  return async (job, logger) => {
    const { timeoutSeconds, owner } = job.data;
    const request = job.data.request as BatchScrapeRequest | undefined;
    if (!request || !Array.isArray(request.urls)) throw new AppError('INVALID_REQUEST', 'The batch job carries no request');
    const concurrency = Math.max(1, Number(job.data.concurrency) || context.config.crawlConcurrency);
    const signal = AbortSignal.timeout(timeoutSeconds * 1000);
    const wanted = new Set<BatchWebhookEvent>(request.webhook_url ? (request.webhook_events ?? ['batch.completed', 'batch.failed']) : []);
    const webhookDeps = { secrets: context.webhookSecrets, urlPolicy: urlPolicyOf(context.config, logger), logger };
    const stream =
      request.webhook_url && wanted.has('batch.page')
        ? new JobEvents({ kind: 'batch', url: request.webhook_url, headers: request.webhook_headers, owner }, webhookDeps)
        : undefined;
    const progress = new CrawlProgressWriter(job);
    const budget = new ByteBudget(context.config.results.pageMaxBytes, context.config.results.jobMaxBytes);
    const results: BatchPageResult[] = new Array(request.urls.length);
    let completed = 0;
    let failed = 0;
    let truncated = false;
    const report = () => progress.report({ total_pages: request.urls.length, successful_pages: completed, failed_pages: failed });

    const scrapeOne = async (index: number) => {
      const url = request.urls[index]!;
      let result: BatchPageResult;
      try {
        const page = await scrapeUrl(
          {
            url,
            format: request.format,
            includeHtml: request.include_html,
            renderJs: request.render_js ?? 'auto',
            timeoutMs: request.timeout * 1000,
            signal,
            context: pageContextOf({ ...request, url }),
            scope: contentScopeOf(request),
          },
          { ...context.web, logger },
        );
        const capped = budget.takePage(page.html === undefined ? [page.content] : [page.content, page.html]);
        truncated ||= capped.truncated;
        // Results are in the order of `urls`; `url` is where the page ended up, metadata.source_url what was asked.
        result = {
          ...page,
          content: capped.bodies[0]!,
          ...(page.html === undefined ? {} : { html: capped.bodies[1]! }),
          ...(capped.truncated ? { truncated: true as const } : {}),
        };
        completed += 1;
      } catch (error) {
        if (signal.aborted) throw error;
        const { code, message } = isAppError(error)
          ? { code: error.code, message: error.message }
          : { code: 'INTERNAL', message: errorMessage(error) };
        result = { url, success: false, error: message, code };
        failed += 1;
      }
      results[index] = result;
      report();
      if (stream) await stream.push({ event: 'batch.page', job_id: job.id, type: 'batch', status: 'processing', url, data: result });
    };

    const notifyEnd = (status: 'completed' | 'failed', body: Record<string, unknown>) => {
      const event: BatchWebhookEvent = status === 'completed' ? 'batch.completed' : 'batch.failed';
      if (!request.webhook_url || !wanted.has(event)) return;
      sendJobWebhook(
        job,
        status,
        {
          kind: 'batch',
          url: request.webhook_url,
          headers: request.webhook_headers,
          owner,
          after: stream?.drained(),
          payload: async () => ({ event, job_id: job.id, type: 'batch', status, ...body }),
        },
        webhookDeps,
      );
    };

    try {
      let next = 0;
      const worker = async () => {
        while (next < request.urls.length) {
          signal.throwIfAborted();
          await scrapeOne(next++);
        }
      };
      report();
      await Promise.all(Array.from({ length: Math.min(concurrency, request.urls.length) }, worker));
      await progress.stop();
      const data: BatchData = {
        total: request.urls.length,
        completed,
        failed,
        data: results,
        ...(truncated ? { truncated: true as const } : {}),
      };
      logger.info({ total: data.total, completed, failed }, 'batch finished');
      const stored = await saveJobResult(context.store, job.id, data);
      notifyEnd('completed', { total: data.total, completed, failed });
      return stored;
    } catch (caught) {
      await progress.stop();
      const error = signal.aborted ? new AppError('JOB_TIMEOUT', `The batch did not finish within ${timeoutSeconds} s`) : caught;
      if (!(isAppError(error) && error.retryable) || isLastAttempt(job)) {
        const { code, message } = publicJobError(encodeJobError(error));
        notifyEnd('failed', { error: message, code });
      }
      throw error;
    }
  };
}
