/** One check against the one before: whether it changed, how, and a short line diff. */
import { OMIT_HEADERS, formatPatch, structuredPatch } from 'diff';
import { WATCH_LIMITS, type WatchChangeType } from '@sitelens/contracts';
import type { WatchSnapshot } from '@sitelens/watch';

export interface Comparison {
  has_changed: boolean;
  change_type: WatchChangeType;
  diff?: string;
  diff_stats?: { added_lines: number; removed_lines: number };
}

/** Bound of the line diff's own work; past it the diff is a plain replacement. */
const DIFF_TIMEOUT_MS = 1_000;
const DIFF_CONTEXT_LINES = 2;

function changeTypeOf(previous: WatchSnapshot, current: WatchSnapshot): WatchChangeType {
  if (!previous.present && current.present) return 'added';
  if (previous.present && !current.present) return 'removed';
  return 'content';
}

/** Cuts a diff at a line boundary within `max` characters. */
function truncate(diff: string, max: number): string {
  if (diff.length <= max) return diff;
  const cut = diff.lastIndexOf('\n', max);
  return `${diff.slice(0, cut > 0 ? cut : max)}\n… (diff truncated)`;
}

/** When the line diff runs out of time (most lines changed): everything removed, then everything added. */
function replacement(before: string, after: string): Pick<Comparison, 'diff' | 'diff_stats'> {
  const removed = before === '' ? [] : before.split('\n');
  const added = after === '' ? [] : after.split('\n');
  const lines = [`@@ -1,${removed.length} +1,${added.length} @@`, ...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)];
  return {
    diff: truncate(lines.join('\n'), WATCH_LIMITS.maxDiffChars),
    diff_stats: { added_lines: added.length, removed_lines: removed.length },
  };
}

export function lineDiff(before: string, after: string): Pick<Comparison, 'diff' | 'diff_stats'> {
  const patch = structuredPatch('previous', 'current', `${before}\n`, `${after}\n`, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (!patch) return replacement(before, after);
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  return {
    diff: truncate(formatPatch(patch, OMIT_HEADERS).trim(), WATCH_LIMITS.maxDiffChars),
    diff_stats: { added_lines: added, removed_lines: removed },
  };
}

export function compareSnapshots(previous: WatchSnapshot | undefined, current: WatchSnapshot): Comparison {
  if (!previous) return { has_changed: false, change_type: 'first' };
  if (previous.hash === current.hash && previous.present === current.present) return { has_changed: false, change_type: 'none' };
  return { has_changed: true, change_type: changeTypeOf(previous, current), ...lineDiff(previous.content, current.content) };
}
