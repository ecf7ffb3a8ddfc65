import type { OutputFormat } from '@sitelens/contracts';
import { toCsv } from './csv';
import { toJson } from './json';
import { toMarkdown } from './markdown';

export { toCsv } from './csv';
export { toJson } from './json';
export { toMarkdown, markdownTable } from './markdown';
export { toTable, flattenRecord, findMainArray, type Table, type Row, type Cell } from './rows';

/** The response's `data` in the requested format: the object for json, text for csv and markdown. */
export function formatOutput(data: unknown, format: OutputFormat): unknown {
  switch (format) {
    case 'csv':
      return toCsv(data);
    case 'markdown':
      return toMarkdown(data);
    case 'json':
      return toJson(data);
  }
}
