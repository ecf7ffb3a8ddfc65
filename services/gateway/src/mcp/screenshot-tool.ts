import { z } from 'zod';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { TimeoutError, followDeadline, type JobEnvelope, type ScreenshotJobResult } from '@sitelens/contracts';
import { readBlobBytes } from '@sitelens/storage';
import { loadJob } from '../jobs/job-access';
import { screenshotsCreate } from '../routes/screenshots.create';
import { screenshotsGet } from '../routes/screenshots.get';
import { callRoute, toolResult, type McpTool, type ToolContext } from './tool';

/** The largest image returned inline (MCP image content is base64 in the JSON-RPC answer). */
export const INLINE_IMAGE_MAX_BYTES = 1024 * 1024;
/** The longest one long-poll of the job lookup holds (its `wait` cap). */
const LOOKUP_WAIT_SECONDS = 60;

const options = z.object({
  inline: z
    .boolean()
    .default(false)
    .describe('Also return the image itself (PNG, JPEG or WebP of at most 1 MB) so you can look at it; PDFs stay at the URL.'),
});

interface ScreenshotAnswer {
  success: boolean;
  job_id: string;
  status: 'processing' | 'completed' | 'failed';
  screenshot?: string;
  error?: string;
  code?: string;
}

/** Follows the job through the lookup route until it ends, within the job's own deadline. */
async function whenDone(jobId: string, ctx: ToolContext): Promise<ScreenshotAnswer> {
  const found = await loadJob(ctx.deps, ctx.req, ctx.deps.queues.screenshot, jobId);
  const envelope = found?.job.data as Partial<JobEnvelope> | undefined;
  const deadline =
    envelope?.acceptedAt !== undefined && envelope.timeoutSeconds !== undefined
      ? followDeadline('screenshot', envelope as JobEnvelope)
      : Date.now();
  for (;;) {
    const remaining = Math.ceil((deadline - Date.now()) / 1000);
    const wait = Math.min(LOOKUP_WAIT_SECONDS, Math.max(1, remaining));
    const { body } = await callRoute(screenshotsGet, { query: { job_id: jobId, wait: String(wait) } }, ctx);
    const answer = body as ScreenshotAnswer;
    if (answer.status !== 'processing') return answer;
    // (The request stream is always "destroyed" once its body is read: the answer's stream says
    // whether the client is still there.)
    if (remaining <= 1 || ctx.deps.stopping.aborted || ctx.res.destroyed || ctx.res.writableEnded) {
      throw new TimeoutError(`The screenshot did not finish in time; job ${jobId} may still complete: GET /v1/screenshots?job_id=${jobId}`);
    }
  }
}

/** The image as MCP image content, or a note saying why it is only at the URL. */
async function inlineImage(jobId: string, ctx: ToolContext): Promise<ContentBlock> {
  const found = await loadJob(ctx.deps, ctx.req, ctx.deps.queues.screenshot, jobId);
  const result = found?.job.returnvalue as ScreenshotJobResult | undefined;
  if (!result) return { type: 'text', text: 'The image is no longer stored; take the screenshot again.' };
  if (!result.contentType.startsWith('image/'))
    return { type: 'text', text: `A ${result.contentType} is not returned inline; fetch it from the URL.` };
  const bytes = await readBlobBytes(ctx.deps.store, result.key, INLINE_IMAGE_MAX_BYTES).catch(() => null);
  if (bytes === null) return { type: 'text', text: 'The image could not be read back for inline use; fetch it from the URL.' };
  if (!bytes) return { type: 'text', text: 'The image is larger than 1 MB, so it is not inline; fetch it from the URL.' };
  return { type: 'image', data: bytes.toString('base64'), mimeType: result.contentType };
}

export const screenshotTool: McpTool<z.infer<typeof options>> = {
  name: 'screenshot',
  title: 'Screenshot a page',
  description:
    'Capture a web page (url) or your own HTML (html) in Chromium as PNG, JPEG, WebP or PDF: a device preset or a custom ' +
    'viewport, full page, one element (selector), dark mode, ad and cookie-banner blocking and more. Waits for the capture ' +
    '(usually 1-5 s, longer with wait_until/delay) and returns a signed URL of the image, valid 15 minutes; inline: true ' +
    'also returns the image so you can see it. Costs one request and a browser page while it renders. To read what a page ' +
    'says, scrape is faster and cheaper.',
  route: screenshotsCreate,
  input: 'body',
  omit: ['stream'],
  options,
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run({ args, options: { inline } }, ctx) {
    const { body } = await callRoute(screenshotsCreate, { body: args }, ctx);
    const answer = await whenDone((body as { job_id: string }).job_id, ctx);
    if (answer.status === 'failed') {
      return { ...toolResult(answer, `${answer.code}: ${answer.error}`), isError: true };
    }
    const image = inline ? [await inlineImage(answer.job_id, ctx)] : [];
    return toolResult(answer, `Screenshot (signed URL, valid 15 minutes): ${answer.screenshot}`, image);
  },
};
