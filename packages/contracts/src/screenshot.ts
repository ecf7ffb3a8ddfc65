import { z } from 'zod';
import { CUSTOM_HEIGHT, CUSTOM_WIDTH, DEVICE_NAMES, DEVICE_SCALE, resolveDevice } from './devices';
import { BadRequest } from './errors';
import { boundedInt, cssSelector, httpUrl, oneOf, queryInt } from './fields';
import { webhookHeaders } from './crawl';
import { checkPageContext, geolocationField, injectedCode, pageContextFields, timezoneField } from './page-controls';

export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
/** What a screenshot job can produce: a raster image or a PDF of the page. */
export const SCREENSHOT_FORMATS = [...IMAGE_FORMATS, 'pdf'] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];

export const PDF_PAPER = ['a4', 'letter', 'legal', 'a3', 'tabloid'] as const;
/** CSS lengths puppeteer and Chromium accept for PDF margins. */
const CSS_LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|in|cm|mm))$/;
const marginSide = z
  .string({ error: 'must be a CSS length such as 10mm, 0.5in or 20px' })
  .trim()
  .refine((value) => CSS_LENGTH.test(value), 'must be a CSS length such as 10mm, 0.5in or 20px');

const pdfField = z.object(
  {
    paper: oneOf(PDF_PAPER).default('a4'),
    landscape: z.boolean({ error: 'must be true or false' }).default(false),
    print_background: z.boolean({ error: 'must be true or false' }).default(true),
    margin: z
      .object(
        { top: marginSide.optional(), right: marginSide.optional(), bottom: marginSide.optional(), left: marginSide.optional() },
        {
          error: 'must be an object with top, right, bottom and left CSS lengths',
        },
      )
      .optional(),
    scale: z.number({ error: 'must be a number' }).min(0.1, 'must be between 0.1 and 2').max(2, 'must be between 0.1 and 2').default(1),
    page_ranges: z
      .string({ error: 'must be a string such as "1-3, 5"' })
      .trim()
      .max(100)
      .refine(
        (value) => /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/.test(value),
        'must be page numbers and ranges such as "1-3, 5"',
      )
      .optional(),
  },
  { error: 'must be an object (paper, landscape, print_background, margin, scale, page_ranges)' },
);

/** Largest `html` to render, in UTF-8 bytes (it sits in the queued job in Redis). */
export const MAX_HTML_BYTES = 512 * 1024;

/** Longest `cache_ttl`, in seconds (a day). */
export const MAX_CACHE_TTL_SECONDS = 86_400;

/** Largest thumbnail side (`image_width` / `image_height`), in pixels. */
export const MAX_IMAGE_SIDE = 3840;

export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

export const SCREENSHOT_LIMITS = {
  maxHideSelectors: 50,
  maxSelectorLength: 500,
  maxDelaySeconds: 30,
  timeoutSeconds: { min: 5, max: 120, default: 30 },
} as const;

/** Time a full-page capture's lazy-load scroll pass may take, and the wait for what it loaded. */
export const FULL_PAGE_SCROLL = { budgetMs: 6_000, settleMs: 2_000 } as const;
/** Headroom for page set-up, hiding, encoding and closing, beyond the request's own timeout and delay. */
const CAPTURE_MARGIN_MS = 10_000;

/**
 * Longest a screenshot may take once a worker has it: the request's timeout (navigation and
 * wait_for_selector share it), its delay, the scroll pass for full pages and a margin for capture.
 * The browser pool holds a job to it, and a job's `timeoutSeconds` is it, rounded up.
 */
export function screenshotBudgetMs(request: Pick<ScreenshotCreateRequest, 'timeout' | 'delay' | 'full_page'>): number {
  const scroll = request.full_page ? FULL_PAGE_SCROLL.budgetMs + FULL_PAGE_SCROLL.settleMs : 0;
  return request.timeout * 1000 + request.delay * 1000 + scroll + CAPTURE_MARGIN_MS;
}

/** A screenshot job's `timeoutSeconds`: its whole budget, so no deadline cuts a delayed or full-page capture short. */
export function screenshotJobSeconds(request: Pick<ScreenshotCreateRequest, 'timeout' | 'delay' | 'full_page'>): number {
  return Math.ceil(screenshotBudgetMs(request) / 1000);
}

/** Syntax checked here; the browser still checks each selector (its grammar is the final word). */
const selector = cssSelector(SCREENSHOT_LIMITS.maxSelectorLength);

/** Resource types `block_resources` may name (Chromium's own names, lower-cased). */
export const BLOCKABLE_RESOURCES = ['image', 'stylesheet', 'script', 'font', 'media'] as const;
export type BlockableResource = (typeof BLOCKABLE_RESOURCES)[number];

/** Largest clip side, in CSS pixels (the pixel cap still applies to the whole clip). */
export const MAX_CLIP_SIDE = 16_384;

const clipField = z.object(
  {
    x: z.number({ error: 'must be a number' }).min(0, 'must be at least 0').max(100_000, 'must be at most 100000'),
    y: z.number({ error: 'must be a number' }).min(0, 'must be at least 0').max(100_000, 'must be at most 100000'),
    width: z.number({ error: 'must be a number' }).min(1, 'must be at least 1').max(MAX_CLIP_SIDE, `must be at most ${MAX_CLIP_SIDE}`),
    height: z.number({ error: 'must be a number' }).min(1, 'must be at least 1').max(MAX_CLIP_SIDE, `must be at most ${MAX_CLIP_SIDE}`),
  },
  { error: 'must be an object with x, y, width and height (CSS pixels)' },
);

export const screenshotCreateRequest = z
  .object({
    // Exactly one of them: the page at a URL, or this HTML rendered as the page.
    url: httpUrl().optional(),
    html: z
      .string({ error: 'must be a string of HTML' })
      .min(1, 'must not be empty')
      .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_HTML_BYTES, `must be at most ${MAX_HTML_BYTES / 1024} KiB`)
      .optional(),
    device: oneOf(DEVICE_NAMES).default('desktop'),
    width: boundedInt(CUSTOM_WIDTH.min, CUSTOM_WIDTH.max).optional(),
    height: boundedInt(CUSTOM_HEIGHT.min, CUSTOM_HEIGHT.max).optional(),
    full_page: z.boolean().default(false),
    // `jpg` is accepted as the common spelling of jpeg (existing clients send it).
    format: oneOf([...SCREENSHOT_FORMATS, 'jpg'])
      .default('png')
      .transform((value): ScreenshotFormat => (value === 'jpg' ? 'jpeg' : value)),
    pdf: pdfField.optional(),
    image_width: boundedInt(16, MAX_IMAGE_SIDE).optional(),
    image_height: boundedInt(16, MAX_IMAGE_SIDE).optional(),
    quality: boundedInt(1, 100).optional(),
    device_scale: z
      .number({ error: 'must be a number' })
      .min(DEVICE_SCALE.min, `must be between ${DEVICE_SCALE.min} and ${DEVICE_SCALE.max}`)
      .max(DEVICE_SCALE.max, `must be between ${DEVICE_SCALE.min} and ${DEVICE_SCALE.max}`)
      .optional(),
    dark_mode: z.boolean().default(false),
    reduced_motion: z.boolean().default(false),
    high_contrast: z.boolean().default(false),
    hide_selectors: z
      .array(selector)
      .max(SCREENSHOT_LIMITS.maxHideSelectors, `must hold at most ${SCREENSHOT_LIMITS.maxHideSelectors} selectors`)
      .default([]),
    block_ads: z.boolean().default(false),
    wait_for_selector: selector.optional(),
    wait_until: oneOf(WAIT_UNTIL).default('load'),
    delay: z.number().min(0, 'must be between 0 and 30').max(SCREENSHOT_LIMITS.maxDelaySeconds, 'must be between 0 and 30').default(0),
    // Supacrawler's synchronous form: the answer is the image itself once the job is done.
    stream: z.boolean().default(false),
    timeout: boundedInt(SCREENSHOT_LIMITS.timeoutSeconds.min, SCREENSHOT_LIMITS.timeoutSeconds.max).default(
      SCREENSHOT_LIMITS.timeoutSeconds.default,
    ),
    // The page as the client wants it loaded (Supacrawler's fields, then the rest).
    ...pageContextFields,
    timezone: timezoneField.optional(),
    geolocation: geolocationField.optional(),
    click_selector: selector.optional(),
    block_resources: z
      .array(oneOf(BLOCKABLE_RESOURCES), { error: `must be an array of ${BLOCKABLE_RESOURCES.join(', ')}` })
      .max(BLOCKABLE_RESOURCES.length)
      .default([])
      .transform((types) => [...new Set(types)]),
    block_chats: z.boolean({ error: 'must be true or false' }).default(false),
    block_trackers: z.boolean({ error: 'must be true or false' }).default(false),
    disable_js: z.boolean({ error: 'must be true or false' }).default(false),
    ignore_https: z.boolean({ error: 'must be true or false' }).default(false),
    print_mode: z.boolean({ error: 'must be true or false' }).default(false),
    is_mobile: z.boolean({ error: 'must be true or false' }).optional(),
    has_touch: z.boolean({ error: 'must be true or false' }).optional(),
    is_landscape: z.boolean({ error: 'must be true or false' }).optional(),
    styles: injectedCode().optional(),
    scripts: injectedCode().optional(),
    // What part of the page the image holds.
    selector: selector.optional(),
    clip: clipField.optional(),
    omit_background: z.boolean({ error: 'must be true or false' }).default(false),
    // Seconds an identical request by the same key is answered from this one's image (0: never).
    cache_ttl: boundedInt(0, MAX_CACHE_TTL_SECONDS).default(0),
    // The finished job POSTed (signed like the crawl's), with a fresh signed image URL.
    webhook_url: httpUrl().optional(),
    webhook_headers: webhookHeaders.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.url === undefined) === (value.html === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [value.url === undefined ? 'url' : 'html'],
        message:
          value.url === undefined
            ? 'is required (or html: exactly one of url and html)'
            : 'cannot be given with url (exactly one of url and html)',
      });
    }
    if (value.html !== undefined) {
      // Headers, credentials and host-only cookies are for the target's own site: HTML has none.
      for (const field of ['headers', 'http_auth'] as const) {
        if (value[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'needs url (rendered html has no site of its own)' });
      }
      if (value.cookies !== undefined)
        ctx.addIssue({ code: 'custom', path: ['cookies'], message: 'needs url (rendered html has no site of its own)' });
    }
    if (value.device === 'custom') {
      for (const field of ['width', 'height'] as const) {
        if (value[field] === undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'is required when device is custom' });
        }
      }
    }
    if (value.selector !== undefined && value.clip !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['clip'], message: 'cannot be combined with selector (one or the other)' });
    }
    for (const field of ['selector', 'clip'] as const) {
      if (value[field] !== undefined && value.full_page) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'cannot be combined with full_page' });
      }
    }
    if (value.pdf !== undefined && value.format !== 'pdf') {
      ctx.addIssue({ code: 'custom', path: ['pdf'], message: 'needs format "pdf"' });
    }
    if (value.format === 'pdf') {
      for (const field of ['selector', 'clip', 'image_width', 'image_height', 'quality'] as const) {
        if (value[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'does not apply to format "pdf"' });
      }
      if (value.omit_background) ctx.addIssue({ code: 'custom', path: ['omit_background'], message: 'does not apply to format "pdf"' });
    }
    if (value.omit_background && value.format === 'jpeg') {
      ctx.addIssue({ code: 'custom', path: ['omit_background'], message: 'needs png or webp (jpeg has no transparency)' });
    }
    if (value.disable_js && value.scripts !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['scripts'], message: 'cannot run with disable_js' });
    }
    checkPageContext(value, ctx);
  });

export type ScreenshotCreateRequest = z.infer<typeof screenshotCreateRequest>;

type ViewportFields = Pick<ScreenshotCreateRequest, 'device' | 'width' | 'height' | 'device_scale'>;

/**
 * Refuses a viewport whose capture would exceed `maxPixels` (SCREENSHOT_MAX_PIXELS): CSS width x
 * height x device scale squared is what Chromium rasterises and the encoder holds. Full pages are
 * not refused: they are cut to the cap (`fullPagePixelCap`).
 */
export function assertViewportPixels(request: ViewportFields, maxPixels: number): void {
  const device = resolveDevice(request.device, request.width, request.height, request.device_scale);
  const pixels = device.width * device.height * device.deviceScaleFactor ** 2;
  if (pixels <= maxPixels) return;
  throw new BadRequest(
    `width x height x device_scale² is ${Math.round(pixels).toLocaleString('en-US')} pixels (${device.width} x ${device.height} at scale ${device.deviceScaleFactor}); this service captures at most ${maxPixels.toLocaleString('en-US')}: lower width, height or device_scale`,
  );
}

/** Refuses a clip whose image would exceed `maxPixels` at the request's device scale. */
export function assertClipPixels(request: ViewportFields & Pick<ScreenshotCreateRequest, 'clip'>, maxPixels: number): void {
  if (!request.clip) return;
  const { deviceScaleFactor } = resolveDevice(request.device, request.width, request.height, request.device_scale);
  const pixels = request.clip.width * request.clip.height * deviceScaleFactor ** 2;
  if (pixels <= maxPixels) return;
  throw new BadRequest(
    `clip.width x clip.height x device_scale² is ${Math.round(pixels).toLocaleString('en-US')} pixels; this service captures at most ${maxPixels.toLocaleString('en-US')}: make the clip smaller`,
  );
}

/** The tallest full page, in CSS pixels, whose image stays within `maxPixels` at this width and scale. */
export function fullPagePixelCap(width: number, deviceScaleFactor: number, maxPixels: number): number {
  return Math.max(1, Math.floor(maxPixels / (width * deviceScaleFactor ** 2)));
}

export const screenshotGetQuery = z.object({
  job_id: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  wait: queryInt(1, 60).optional(),
});

export type ScreenshotGetQuery = z.infer<typeof screenshotGetQuery>;

export interface ScreenshotMetadata {
  width: number;
  height: number;
  format: ScreenshotFormat;
  /** Pages in a PDF. */
  page_count?: number;
  /** True when the job was answered from an earlier identical request's image (`cache_ttl`). */
  cached?: boolean;
  file_size: number;
  load_time: number;
  device: string;
  full_page: boolean;
  /** True when a full-page capture was cut at the height cap. */
  truncated: boolean;
  max_height: number;
}
