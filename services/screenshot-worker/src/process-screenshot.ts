import type { Job } from 'bullmq';
import {
  AppError,
  errorMessage,
  startPhaseTimer,
  type PhaseTimer,
  type ScreenshotJobPayload,
  type ScreenshotJobResult,
} from '@sitelens/contracts';
import type { BlobStore } from '@sitelens/storage';
import type { Logger } from '@sitelens/telemetry';

export interface CapturedImage {
  image: Buffer;
  contentType: string;
  metadata: ScreenshotJobResult['metadata'];
}

export interface ScreenshotProcessorDeps {
  capture: (
    request: ScreenshotJobPayload['request'],
    options: { signal: AbortSignal; logger: Logger; phases: PhaseTimer },
  ) => Promise<CapturedImage>;
  store: BlobStore;
  logger: Logger;
  /** Called with the stored result before the job completes (`cache_ttl`); a failure is logged, not the job's. */
  remember?: (job: Job<ScreenshotJobPayload, ScreenshotJobResult>, result: ScreenshotJobResult) => Promise<void>;
  /** Where each phase's time goes (the `sitelens_screenshot_phase_seconds` histogram). */
  recordPhase?: (phase: string, ms: number) => void;
}

const EXTENSIONS: Record<string, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', pdf: 'pdf' };

/** Every image lives under this key prefix (retention sweeps it). */
export const SCREENSHOT_KEY_PREFIX = 'screenshots/';

/** One screenshot's work; the worker skeleton (`startJobWorker`) handles deadlines, fair share and failures. */
export function createScreenshotProcessor(deps: ScreenshotProcessorDeps) {
  return async function processScreenshot(job: Job<ScreenshotJobPayload, ScreenshotJobResult>): Promise<ScreenshotJobResult> {
    const logger = deps.logger.child({ jobId: job.id });
    const record = deps.recordPhase ?? (() => undefined);
    // Enqueue to pickup, then pickup to here (the fair-share gate and, for a job picked up ahead,
    // the wait for a free slot), from BullMQ's own timestamps.
    const pickedUp = job.processedOn ?? Date.now();
    record('queued', Math.max(0, pickedUp - job.timestamp));
    record('gate', Math.max(0, Date.now() - pickedUp));
    const phases = startPhaseTimer(record);
    const controller = new AbortController();
    // The capture enforces the request's timeout itself; this is the backstop if it does not.
    const backstop = setTimeout(
      () => controller.abort(new AppError('TIMEOUT', 'Screenshot timed out')),
      (job.data.timeoutSeconds + 10) * 1000,
    );
    try {
      const shot = await deps.capture(job.data.request, { signal: controller.signal, logger, phases });
      phases.mark('release'); // the browser context closed and the slot given back
      const key = `${SCREENSHOT_KEY_PREFIX}${job.id}.${EXTENSIONS[shot.metadata.format] ?? 'bin'}`;
      try {
        await deps.store.put(key, shot.image, shot.contentType);
        phases.mark('store');
      } catch (error) {
        throw new AppError('UNAVAILABLE', 'Could not store the image', { retryable: true, cause: error });
      }
      logger.info({ ms: shot.metadata.load_time, bytes: shot.metadata.file_size }, 'screenshot stored');
      const result = { key, contentType: shot.contentType, metadata: shot.metadata };
      await deps.remember?.(job, result).catch((error: unknown) => logger.warn({ err: errorMessage(error) }, 'screenshot not cached'));
      return result;
    } catch (error) {
      logger.warn({ err: errorMessage(error) }, 'screenshot failed');
      throw error;
    } finally {
      clearTimeout(backstop);
    }
  };
}
