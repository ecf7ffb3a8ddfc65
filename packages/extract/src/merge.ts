/** Merging extraction results from page chunks and from several pages. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON text with object keys sorted, so deep-equal values give the same key. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (!isRecord(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((key) => [key, inner[key]]),
    );
  });
}

/** Items in first-seen order with deep-equal duplicates removed. */
export function dedupe<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const key = canonicalJson(item) ?? 'undefined';
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Merges two results describing the same thing: arrays concatenate (duplicates removed), objects
 * merge key by key (arrays inside concatenate, nested objects merge, the first non-empty scalar
 * stays), an array meeting a single value takes it as one more item.
 */
export function mergeValues(first: unknown, second: unknown): unknown {
  if (isEmpty(first)) return second === undefined ? first : second;
  if (isEmpty(second)) return first;
  if (Array.isArray(first)) return dedupe(Array.isArray(second) ? [...first, ...second] : [...first, second]);
  if (Array.isArray(second)) return dedupe([first, ...second]);
  if (isRecord(first) && isRecord(second)) {
    const merged: Record<string, unknown> = { ...first };
    for (const [key, value] of Object.entries(second)) {
      merged[key] = key in first ? mergeValues(first[key], value) : value;
    }
    return merged;
  }
  return first;
}

/** Whether a value holds any data: not empty, and not only empty containers. */
export function hasMeaningfulData(value: unknown): boolean {
  if (isEmpty(value)) return false;
  if (Array.isArray(value)) return value.some(hasMeaningfulData);
  if (isRecord(value)) return Object.values(value).some(hasMeaningfulData);
  return true;
}

function isFlatRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !Object.values(value).some((inner) => Array.isArray(inner));
}

/**
 * Combines the per-page results of one parse. Pages that each gave one flat record (a product, an
 * article; with or without a schema describing one) become a list of those records, one per page
 * with duplicates removed, instead of one object where the first page's values win. Containers
 * (objects holding lists) and lists merge with `mergeValues`.
 */
export function combinePageResults(results: readonly unknown[]): unknown {
  const present = results.filter(hasMeaningfulData);
  if (present.length === 0) return results[0] ?? null;
  if (present.length === 1) return present[0];
  if (present.every(isFlatRecord)) {
    const records = dedupe(present);
    return records.length === 1 ? records[0] : records;
  }
  return present.reduce((merged, next) => mergeValues(merged, next));
}
