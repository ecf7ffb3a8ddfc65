import { errorMessage, type ParseJobProgress, type ParsePageResult, type ParseWorkflowStatus } from '@sitelens/contracts';
import type { Logger } from '@sitelens/telemetry';

/** Where progress goes: BullMQ's `job.updateProgress` in the worker. */
export type ProgressSink = (progress: ParseJobProgress) => Promise<void>;

export interface ProgressReporter {
  /** A stage begins. */
  stage(status: ParseWorkflowStatus): void;
  /** Collection moved on (pages fetched, pages found); reported only when a count changes. */
  counts(pagesProcessed: number, totalPages: number | undefined): void;
  /** One page's data is extracted: a chunk whose `partial_results` holds it. */
  page(result: ParsePageResult): void;
  /** Resolves once every report so far is written, so the job's end event follows them. */
  flush(): Promise<void>;
}

/**
 * Reports a parse's progress as spec 2.5 chunks, written one after the other in call order (the
 * gateway relays them as they are written, and a stream must not see a page before its stage).
 * A failed write is logged and does not stop the work.
 */
export function createProgressReporter(sink: ProgressSink, logger: Logger): ProgressReporter {
  let status: ParseWorkflowStatus = 'analyzing';
  let pagesProcessed = 0;
  let totalPages: number | undefined;
  let chain = Promise.resolve();

  const emit = (partial: ParsePageResult[]) => {
    const chunk: ParseJobProgress = {
      success: true,
      workflow_status: status,
      pages_processed: pagesProcessed,
      ...(totalPages === undefined ? {} : { total_pages: totalPages }),
      partial_results: partial,
    };
    chain = chain
      .then(() => sink(chunk))
      .catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, 'parse progress not recorded');
      });
  };

  return {
    stage(next) {
      status = next;
      emit([]);
    },
    counts(processed, total) {
      if (processed === pagesProcessed && total === totalPages) return;
      pagesProcessed = processed;
      totalPages = total;
      emit([]);
    },
    page(result) {
      emit([result]);
    },
    flush: () => chain,
  };
}
