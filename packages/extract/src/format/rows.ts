import { isRecord } from '../merge';

/** Turning extracted data into table rows, shared by the CSV and markdown formats. */

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

function isRecordArray(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecord);
}

/** The largest array of records in an object (looking into nested objects, not into arrays). */
export function findMainArray(data: Record<string, unknown>): Record<string, unknown>[] | undefined {
  let best: Record<string, unknown>[] | undefined;
  for (const value of Object.values(data)) {
    const candidate = isRecordArray(value) ? value : isRecord(value) ? findMainArray(value) : undefined;
    if (candidate && (!best || candidate.length > best.length)) best = candidate;
  }
  return best;
}

function cellOf(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * One record as flat columns: nested objects become dotted keys (`price.amount`), arrays of
 * scalars are joined with "; ", arrays holding objects are kept whole as JSON text in one cell.
 */
export function flattenRecord(record: Record<string, unknown>, prefix = '', out: Row = {}): Row {
  for (const [key, value] of Object.entries(record)) {
    const column = `${prefix}${key}`;
    if (isRecord(value)) {
      if (Object.keys(value).length === 0) out[column] = null;
      else flattenRecord(value, `${column}.`, out);
    } else if (Array.isArray(value)) {
      out[column] = value.every((item) => !isRecord(item) && !Array.isArray(item))
        ? value.map((item) => (item === null || item === undefined ? '' : String(item))).join('; ')
        : JSON.stringify(value);
    } else {
      out[column] = cellOf(value);
    }
  }
  return out;
}

export interface Table {
  columns: string[];
  rows: Row[];
}

/**
 * Rows for a result: an array gives one row per item; an object holding a list of records (the
 * "main array", e.g. `{products: [...]}`) gives one row per record; any other object is one row;
 * scalars sit in a `value` column.
 */
export function toTable(data: unknown): Table {
  let items: unknown[];
  if (Array.isArray(data)) items = data;
  else if (isRecord(data)) items = findMainArray(data) ?? [data];
  else items = data === null || data === undefined ? [] : [data];

  const rows = items.map((item) => (isRecord(item) ? flattenRecord(item) : { value: cellOf(item) }));
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const column of Object.keys(row)) {
      if (!seen.has(column)) {
        seen.add(column);
        columns.push(column);
      }
    }
  }
  return { columns, rows };
}
