/**
 * Reads one sample from Prometheus text exposition: the value of `name` whose labels include
 * every given pair (label order and extra labels do not matter). Undefined when absent.
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}
