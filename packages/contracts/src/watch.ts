import { parseExpression } from 'cron-parser';
import { z } from 'zod';
import { shortestTimeOfDayGap } from './cron-interval';
import { boundedInt, cssSelector, httpUrl, queryInt } from './fields';
import type { PlanName } from './plans';
import { checkPageContext, pageContextFields, type PageContextRequest } from './page-controls';

/** Watch: a page checked on a schedule, its changes kept and notified (Supacrawler's `/v1/watch`). */

export const WATCH_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type WatchFrequency = (typeof WATCH_FREQUENCIES)[number];

export const WATCH_NOTIFICATION_PREFERENCES = ['changes_only', 'all_runs'] as const;
export type WatchNotificationPreference = (typeof WATCH_NOTIFICATION_PREFERENCES)[number];

/** `first`: nothing to compare with yet; `none`: unchanged; `added`/`removed`: the content appeared or went away. */
export const WATCH_CHANGE_TYPES = ['first', 'none', 'content', 'added', 'removed'] as const;
export type WatchChangeType = (typeof WATCH_CHANGE_TYPES)[number];

export type WatchStatus = 'active' | 'paused';

/** What started a check: the baseline taken at create, the schedule, or `POST /check`. */
export type WatchTrigger = 'create' | 'schedule' | 'manual';

export const WATCH_LIMITS = {
  maxSelectorLength: 500,
  maxCronLength: 120,
  /** Results kept per watch, newest first; older ones (and their images) are dropped. */
  historySize: 25,
  /** Characters of content (and of html_content) kept per result; the hash covers all of it. */
  maxResultChars: 100_000,
  /** Characters of the unified diff kept per result. */
  maxDiffChars: 8_000,
  /** Bound of one check's page work (fetch, render, screenshot wait). */
  checkTimeoutSeconds: 120,
} as const;

export type CronCheck = { ok: true; intervalSeconds: number } | { ok: false; error: string };

/**
 * Checks a cron expression with the parser BullMQ's scheduler runs it with (cron-parser 4, UTC):
 * five fields, six with seconds first, or an `@daily`-style alias. `intervalSeconds` is the
 * shortest gap between two runs: the smaller of the gaps between the next few runs and the bound
 * the time-of-day fields give (see `shortestTimeOfDayGap`), so a schedule cannot hide a burst
 * beyond the runs sampled.
 */
export function checkCron(expression: string): CronCheck {
  const text = expression.trim();
  const fields = text.split(/\s+/).length;
  if (!text.startsWith('@') && fields !== 5 && fields !== 6) {
    return { ok: false, error: 'must be a cron expression of 5 fields (or 6, seconds first)' };
  }
  try {
    const runs = parseExpression(text, { tz: 'UTC' });
    const times = Array.from({ length: 6 }, () => runs.next().getTime());
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    const sampled = Math.round(Math.min(...gaps) / 1000);
    return { ok: true, intervalSeconds: Math.min(sampled, shortestTimeOfDayGap(runs.fields)) };
  } catch (error) {
    return { ok: false, error: `is not a valid cron expression (${error instanceof Error ? error.message : String(error)})` };
  }
}

const NAMED_INTERVAL_SECONDS: Record<Exclude<WatchFrequency, 'custom'>, number> = {
  hourly: 3_600,
  daily: 86_400,
  weekly: 7 * 86_400,
  monthly: 28 * 86_400,
};

/** The shortest gap between two scheduled checks of a watch (undefined: a cron that does not parse). */
export function watchIntervalSeconds(watch: { frequency: WatchFrequency; custom_frequency?: string }): number | undefined {
  if (watch.frequency !== 'custom') return NAMED_INTERVAL_SECONDS[watch.frequency];
  const cron = watch.custom_frequency === undefined ? undefined : checkCron(watch.custom_frequency);
  return cron?.ok ? cron.intervalSeconds : undefined;
}

export const watchCreateRequest = z
  .object({
    url: httpUrl(),
    frequency: z.enum(WATCH_FREQUENCIES, { error: `must be one of ${WATCH_FREQUENCIES.join(', ')}` }),
    custom_frequency: z
      .string({ error: 'must be a cron expression string' })
      .trim()
      .max(WATCH_LIMITS.maxCronLength, `must be at most ${WATCH_LIMITS.maxCronLength} characters`)
      .optional(),
    selector: cssSelector(WATCH_LIMITS.maxSelectorLength).optional(),
    include_html: z.boolean().default(false),
    include_image: z.boolean().default(false),
    full_page: z.boolean().default(false),
    quality: boundedInt(1, 100).optional(),
    notification_preference: z
      .enum(WATCH_NOTIFICATION_PREFERENCES, { error: `must be one of ${WATCH_NOTIFICATION_PREFERENCES.join(', ')}` })
      .default('changes_only'),
    notify_email: z.email({ error: 'must be an email address' }).max(320, 'is too long').optional(),
    webhook_url: httpUrl().optional(),
    /** Each check (and its image) loads the page with it. */
    ...pageContextFields,
  })
  .superRefine((value, ctx) => {
    checkPageContext(value, ctx);
    if (value.frequency !== 'custom') return;
    if (!value.custom_frequency) {
      ctx.addIssue({ code: 'custom', path: ['custom_frequency'], message: 'is required when frequency is custom' });
      return;
    }
    const cron = checkCron(value.custom_frequency);
    if (!cron.ok) ctx.addIssue({ code: 'custom', path: ['custom_frequency'], message: cron.error });
  })
  // A cron given with a named frequency is not used, so it is not kept either.
  .transform((value) => (value.frequency === 'custom' ? value : { ...value, custom_frequency: undefined }));

export type WatchCreateRequest = z.infer<typeof watchCreateRequest>;

export const watchIdParams = z.object({ id: z.string().trim().min(1, 'is required').max(100, 'is too long') });
export type WatchIdParams = z.infer<typeof watchIdParams>;

export const watchListQuery = z.object({
  limit: queryInt(1, 1000).default(100),
  offset: queryInt(0, 1_000_000).default(0),
});
export type WatchListQuery = z.infer<typeof watchListQuery>;

/** `POST /check` waits this long for the check to finish (0: answer at once with 202). */
export const watchCheckQuery = z.object({ wait: queryInt(0, 60).default(20) });
export type WatchCheckQuery = z.infer<typeof watchCheckQuery>;

/** A watch as clients see it (the Supacrawler client's field names), with its page context (secrets shown redacted). */
export interface Watch extends Omit<PageContextRequest, 'url'> {
  id: string;
  url: string;
  frequency: WatchFrequency;
  custom_frequency?: string;
  selector?: string;
  include_html: boolean;
  include_image: boolean;
  full_page: boolean;
  quality?: number;
  notification_preference: WatchNotificationPreference;
  notify_email?: string;
  webhook_url?: string;
  status: WatchStatus;
  created_at: string;
  updated_at: string;
  last_check: string | null;
  last_change: string | null;
  last_notification: string | null;
}

/** A watch as stored: the owning API key id and its plan in hosted mode. */
export interface WatchRecord extends Watch {
  owner?: string;
  /** The owner's plan when the watch was made: scheduled checks count against its daily quota. */
  plan?: PlanName;
}

export interface WatchNotificationOutcome {
  webhook?: { delivered: boolean; attempts: number; status?: number; error?: string };
  email?: { sent: boolean; error?: string };
}

/** One check's outcome as stored; clients get `image_url` (freshly signed) in place of `image_key`. */
export interface WatchResultRecord {
  id: string;
  executed_at: string;
  /** The schedule tick this check ran for (scheduled checks only). */
  scheduled_for?: string;
  trigger: WatchTrigger;
  /** `skipped`: the check did not run (hosted: the key's daily quota was spent); `error` says why. */
  status: 'completed' | 'failed' | 'skipped';
  has_changed: boolean;
  change_type: WatchChangeType | null;
  content_hash: string | null;
  content: string;
  content_truncated?: boolean;
  html_content?: string;
  /** Unified diff against the previous content (changes only), cut at `maxDiffChars`. */
  diff?: string;
  diff_stats?: { added_lines: number; removed_lines: number };
  image_key?: string;
  image_error?: string;
  error?: string;
  code?: string;
}

export type WatchResult = Omit<WatchResultRecord, 'image_key'> & { image_url: string | null };
