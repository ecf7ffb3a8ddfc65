/**
 * include_image: a screenshot through the screenshot queue (this worker never opens a browser for
 * it), waited for so the result can keep the image's storage key; the gateway signs a fresh URL
 * for it on every read.
 */
import { decodeJobError, followDeadline, screenshotCreateRequest, type WatchRecord } from '@sitelens/contracts';
import { enqueue, type ScreenshotGate } from '@sitelens/queue';

export type CapturedImage = { key: string } | { error: string };

const POLL_MS = 250;

export async function captureWatchImage(
  watch: Pick<WatchRecord, 'url' | 'full_page' | 'quality' | 'owner' | 'plan'>,
  gate: ScreenshotGate,
  signal?: AbortSignal,
): Promise<CapturedImage> {
  // quality only means something for lossy formats, so a watch that sets it gets a JPEG.
  const request = screenshotCreateRequest.parse({
    url: watch.url,
    full_page: watch.full_page,
    ...(watch.quality === undefined ? {} : { format: 'jpeg', quality: watch.quality }),
  });
  const job = await enqueue({ screenshot: gate }, 'screenshot', { request }, { owner: { owner: watch.owner, plan: watch.plan } });
  const deadline = followDeadline('screenshot', job.data);
  while (Date.now() < deadline && !signal?.aborted) {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') {
      const done = await gate.queue.getJob(job.id ?? '');
      if (state === 'completed' && done?.returnvalue?.key) return { key: done.returnvalue.key };
      return { error: decodeJobError(done?.failedReason).message || 'The screenshot failed' };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { error: 'The screenshot did not finish in time' };
}
