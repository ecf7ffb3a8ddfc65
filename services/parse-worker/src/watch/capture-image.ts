/**
 * include_image: a screenshot through the screenshot queue (this worker never opens a browser for
 * it), followed to its end so the result can keep the image's storage key; the gateway signs a
 * fresh URL for it on every read.
 */
import type { QueueEvents } from 'bullmq';
import { decodeJobError, followDeadline, screenshotCreateRequest, type ScreenshotJobResult, type WatchRecord } from '@sitelens/contracts';
import { enqueue, followJob, type ScreenshotGate } from '@sitelens/queue';

export type CapturedImage = { key: string } | { error: string };

export async function captureWatchImage(
  watch: Pick<
    WatchRecord,
    'url' | 'full_page' | 'quality' | 'owner' | 'plan' | 'headers' | 'cookies' | 'user_agent' | 'http_auth' | 'locale' | 'block_cookies'
  >,
  screenshots: { gate: ScreenshotGate; events: QueueEvents },
  signal?: AbortSignal,
): Promise<CapturedImage> {
  // quality only means something for lossy formats, so a watch that sets it gets a JPEG.
  const request = screenshotCreateRequest.parse({
    url: watch.url,
    full_page: watch.full_page,
    // The image shows the page as the check reads it.
    headers: watch.headers,
    cookies: watch.cookies,
    user_agent: watch.user_agent,
    http_auth: watch.http_auth,
    locale: watch.locale,
    block_cookies: watch.block_cookies,
    ...(watch.quality === undefined ? {} : { format: 'jpeg', quality: watch.quality }),
  });
  const { gate, events } = screenshots;
  const job = await enqueue({ screenshot: gate }, 'screenshot', { request }, { owner: { owner: watch.owner, plan: watch.plan } });
  const end = await followJob<ScreenshotJobResult>({ queue: gate.queue, events }, String(job.id), {
    waitMs: followDeadline('screenshot', job.data) - Date.now(),
    ...(signal ? { signal } : {}),
  }).done;
  if (end.state === 'completed' && end.result?.key) return { key: end.result.key };
  if (end.state === 'failed') return { error: decodeJobError(end.failedReason).message || 'The screenshot failed' };
  if (end.state === 'completed') return { error: 'The screenshot failed' };
  return { error: 'The screenshot did not finish in time' };
}
