import { stringify } from 'csv-stringify/sync';
import { toTable } from './rows';

/**
 * RFC 4180 CSV: a header row, CRLF line ends, fields holding a comma, a quote or a line break
 * quoted (quotes doubled). Rows come from `toTable`: nested fields flattened with dots.
 */
export function toCsv(data: unknown): string {
  const { columns, rows } = toTable(data);
  if (columns.length === 0) return '';
  return stringify(rows, {
    header: true,
    columns,
    record_delimiter: 'windows',
    // The library only quotes its own record delimiter (CRLF); a lone LF or CR must be quoted too.
    quoted_match: /[\r\n]/,
    cast: { boolean: (value) => String(value) },
  });
}
