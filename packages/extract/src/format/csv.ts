import { stringify } from 'csv-stringify/sync';
import { toTable } from './rows';

/**
 * First characters a spreadsheet may read as the start of a formula (OWASP "CSV Injection"): `=`,
 * `+`, `-`, `@`, tab and carriage return, and their full-width forms, which some applications
 * normalise. The same list csv-stringify's `escape_formulas` checks.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * RFC 4180 CSV: a header row, CRLF line ends, fields holding a comma, a quote or a line break
 * quoted (quotes doubled). Rows come from `toTable`: nested fields flattened with dots.
 *
 * Formula injection (the data comes from web pages): a text cell, header included, that starts
 * with one of FORMULA_START gets a leading single quote and is quoted (`"'=1+2"`), as OWASP
 * advises. A JSON number is written as is, `-5` included: its text is only digits, `-`, `.`, `e`
 * and `+`, which a spreadsheet reads as a number, never as a formula; the text "-5" is escaped.
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
    // The library adds the quote (to text only: numbers are left alone); the cast quotes the cell.
    escape_formulas: true,
    cast: {
      boolean: (value) => String(value),
      string: (value) => (FORMULA_START.test(value) ? { value, quoted: true } : value),
    },
  });
}
