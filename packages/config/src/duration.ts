const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `500ms`, `30s`, `5m`, `24h`, `7d` or a bare number of seconds into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match || match[1] === undefined) return undefined;
  const unit = UNITS[match[2] ?? 's'];
  return unit === undefined ? undefined : Math.round(Number(match[1]) * unit);
}
