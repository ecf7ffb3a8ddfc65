import { isRecord } from '../merge';
import { toTable, type Cell } from './rows';

function cellText(value: Cell): string {
  if (value === null) return '';
  return String(value)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n|\r/g, '<br>');
}

function inlineText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\r?\n|\r/g, ' ');
}

/** A GitHub-flavoured table for a list of records, nested fields flattened with dots. */
export function markdownTable(records: Record<string, unknown>[]): string {
  const { columns, rows } = toTable(records);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(columns.map((column) => cellText(column))),
    line(columns.map(() => '---')),
    ...rows.map((row) => line(columns.map((column) => cellText(row[column] ?? null)))),
  ].join('\n');
}

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'function');
}

function render(value: unknown, level: number): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '_None_';
    if (value.every(isRecord)) return markdownTable(value);
    return value.map((item) => `- ${inlineText(item)}`).join('\n');
  }
  if (!isRecord(value)) return inlineText(value);

  const blocks: string[] = [];
  const scalars = Object.entries(value).filter(([, inner]) => isScalar(inner));
  if (scalars.length > 0) blocks.push(scalars.map(([key, inner]) => `- **${key}:** ${inlineText(inner)}`).join('\n'));
  for (const [key, inner] of Object.entries(value)) {
    if (isScalar(inner)) continue;
    blocks.push(`${'#'.repeat(Math.min(level, 6))} ${key}`, render(inner, level + 1));
  }
  return blocks.join('\n\n');
}

/**
 * Markdown for extracted data: lists of records become tables (pipes escaped, line breaks as
 * `<br>`), objects become a list of their plain fields followed by a heading per nested field,
 * lists of plain values become bullet lists. A string result is returned as it is.
 */
export function toMarkdown(data: unknown): string {
  if (typeof data === 'string') return data;
  return `${render(data, 2)}\n`;
}
