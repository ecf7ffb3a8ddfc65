/** Response shapes of the watch routes, for the OpenAPI document. */
import { z } from 'zod';
import { WATCH_CHANGE_TYPES, WATCH_FREQUENCIES, WATCH_NOTIFICATION_PREFERENCES } from '@sitelens/contracts';

const isoTime = z.string().describe('ISO 8601 time');

export const watchSchema = z.object({
  id: z.string(),
  url: z.string(),
  frequency: z.enum(WATCH_FREQUENCIES),
  custom_frequency: z.string().optional(),
  selector: z.string().optional(),
  include_html: z.boolean(),
  include_image: z.boolean(),
  full_page: z.boolean(),
  quality: z.number().int().optional(),
  notification_preference: z.enum(WATCH_NOTIFICATION_PREFERENCES),
  notify_email: z.string().optional(),
  webhook_url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional().describe('Header names; values shown as [redacted]'),
  cookies: z
    .array(z.looseObject({ name: z.string(), value: z.string(), domain: z.string().optional(), path: z.string().optional() }))
    .optional()
    .describe('Cookie values shown as [redacted]'),
  user_agent: z.string().optional(),
  http_auth: z.object({ username: z.string(), password: z.string() }).optional().describe('Password shown as [redacted]'),
  locale: z.string().optional(),
  block_cookies: z.boolean().optional(),
  status: z.enum(['active', 'paused']),
  created_at: isoTime,
  updated_at: isoTime,
  last_check: isoTime.nullable(),
  last_change: isoTime.nullable(),
  last_notification: isoTime.nullable(),
});

export const watchResultSchema = z.object({
  id: z.string(),
  executed_at: isoTime,
  scheduled_for: isoTime.optional(),
  trigger: z.enum(['create', 'schedule', 'manual']),
  status: z.enum(['completed', 'failed', 'skipped']).describe("skipped: not run, the key's daily quota was spent (see error)"),
  has_changed: z.boolean(),
  change_type: z.enum(WATCH_CHANGE_TYPES).nullable(),
  content_hash: z.string().nullable(),
  content: z.string(),
  content_truncated: z.boolean().optional(),
  html_content: z.string().optional(),
  diff: z.string().optional().describe('Unified diff against the previous check'),
  diff_stats: z.object({ added_lines: z.number(), removed_lines: z.number() }).optional(),
  image_url: z.string().nullable().describe('Signed URL valid 15 minutes'),
  image_error: z.string().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});

export const watchActionResponse = z.object({ success: z.literal(true), message: z.string(), watch: watchSchema.optional() });
