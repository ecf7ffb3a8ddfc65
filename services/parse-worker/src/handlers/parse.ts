import {
  BadRequest,
  Unprocessable,
  modelNotConfigured,
  parseCancelKey,
  type ParseJobRequest,
  type ParseJobResult,
  type ParseQueuePayload,
} from '@sitelens/contracts';
import { extractFromPages, formatOutput } from '@sitelens/extract';
import { analyzePrompt } from '@sitelens/parse-input';
import { saveJobResult, type StoredResultRef } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';
import type { ParseWorkerContext } from '../context';
import type { ParseJobHandler } from './job-handler';
import { collectPages } from '../parse/collect-pages';
import { watchJobAbort } from '../parse/job-abort';
import { createProgressReporter } from '../parse/progress-reporter';

/** The request a `parse` job carries; the gateway validated it, this only guards the shape. */
function requestOf(data: ParseQueuePayload): ParseJobRequest {
  const request = data.request as Partial<ParseJobRequest> | undefined;
  if (!request || typeof request.prompt !== 'string') throw new BadRequest('The parse job carries no request');
  return {
    prompt: request.prompt,
    schema: request.schema,
    output_format: request.output_format,
    max_depth: request.max_depth ?? 1,
    max_pages: request.max_pages ?? 10,
  };
}

function listErrors(errors: { url: string; error: string }[]): string {
  const shown = errors.slice(0, 5).map(({ url, error }) => `${url}: ${error}`);
  return errors.length > shown.length ? `${shown.join('; ')}; and ${errors.length - shown.length} more` : shown.join('; ');
}

/**
 * The `parse` job: analyzing -> scraping|crawling -> extracting -> formatting, each stage and each
 * extracted page reported as job progress (spec 2.5 chunks), the full response as the job's result
 * (in the blob store; the job returns its reference).
 * Errors keep their codes: 422 without a URL or without any reachable page, LLM_ERROR when the
 * model keeps failing, LLM_NOT_CONFIGURED without a model. The client's disconnect (cancel key)
 * or the job's time budget stops every fetch and model call in flight.
 */
export function createParseHandler(context: ParseWorkerContext): ParseJobHandler<'parse'> {
  const { config, web, model } = context;

  return async (job, logger: Logger): Promise<StoredResultRef> => {
    const started = Date.now();
    const request = requestOf(job.data);
    const abort = watchJobAbort({
      redis: context.redis,
      cancelKey: parseCancelKey(config.redis.prefix, job.id ?? ''),
      timeoutMs: job.data.timeoutSeconds * 1000,
    });
    const progress = createProgressReporter((chunk) => job.updateProgress(chunk), logger);
    try {
      progress.stage('analyzing');
      const analysis = analyzePrompt(request.prompt, { outputFormat: request.output_format });
      if (request.schema !== undefined) await context.schemaChecker.check(request.schema);
      if (!model.configured) throw modelNotConfigured();

      const collecting = analysis.action === 'crawl' ? 'crawling' : 'scraping';
      progress.stage(collecting);
      const collected = await collectPages(
        {
          urls: analysis.urls,
          action: analysis.action,
          maxDepth: request.max_depth,
          maxPages: request.max_pages,
          concurrency: config.crawlConcurrency,
          signal: abort.signal,
          onProgress: ({ pagesProcessed, totalPages }) => progress.counts(pagesProcessed, totalPages),
        },
        web,
      );
      if (collected.pages.length === 0) {
        throw new Unprocessable(`None of the pages could be fetched: ${listErrors(collected.errors)}`);
      }
      progress.counts(collected.pages.length, collected.totalPages);
      logger.info({ action: analysis.action, pages: collected.pages.length, failed: collected.errors.length }, 'parse pages collected');

      progress.stage('extracting');
      const extracted = await extractFromPages(
        { prompt: request.prompt, pages: collected.pages, schema: request.schema },
        {
          model,
          concurrency: config.llm.concurrency,
          signal: abort.signal,
          schemaChecker: context.schemaChecker,
          onPageResult: ({ url, data }) => progress.page({ url, data }),
        },
      );

      progress.stage('formatting');
      const data = formatOutput(extracted.data, analysis.outputFormat);
      await progress.flush();
      const result: ParseJobResult = {
        success: true,
        data,
        workflow_status: 'completed',
        output_format: analysis.outputFormat,
        pages_processed: collected.pages.length,
        total_pages: collected.totalPages,
        execution_time: Date.now() - started,
        warnings: [...collected.warnings, ...extracted.warnings],
        errors: collected.errors,
        ...extracted.usage,
      };
      // The result goes to the blob store; Redis keeps the reference only.
      return await saveJobResult(context.store, job.id, result);
    } catch (error) {
      // Whatever failed last, a cancellation or time-out is the reason the work stopped.
      throw abort.reasonFor(error);
    } finally {
      abort.stop();
      // The job's failure must not overtake the progress written before it.
      await progress.flush();
    }
  };
}
