/**
 * How the CLI prints what it got: `table` for people (columns, or a key/value list for one
 * record), `json` (one document, stable: the gateway's shapes) and `jsonl` (one line per item).
 * @module
 */
import Table from 'cli-table3';

/** The formats of `--output`. */
export const OUTPUT_FORMATS = ['table', 'json', 'jsonl'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** One column of a table: its heading and how to read it from a row. */
export interface Column<T> {
  readonly heading: string;
  readonly value: (row: T) => unknown;
}

/** A list as the format asks: a table of `columns`, a JSON array, or one JSON line per row. */
export function renderList<T>(rows: readonly T[], format: OutputFormat, columns: readonly Column<T>[]): string {
  if (format === 'json') return JSON.stringify(rows, null, 2);
  if (format === 'jsonl') return rows.map((row) => JSON.stringify(row)).join('\n');
  if (rows.length === 0) return '(none)';
  const table = new Table({ head: columns.map((c) => c.heading), style: { head: [], border: [] } });
  for (const row of rows) table.push(columns.map((c) => cell(c.value(row))));
  return table.toString();
}

/** One record as the format asks: a key/value table of its fields, or one JSON document (one line for jsonl). */
export function renderRecord(record: Record<string, unknown>, format: OutputFormat): string {
  if (format === 'json') return JSON.stringify(record, null, 2);
  if (format === 'jsonl') return JSON.stringify(record);
  const table = new Table({ style: { head: [], border: [] } });
  for (const [key, value] of Object.entries(record)) table.push({ [key]: cell(value) });
  return table.toString();
}

/** A value as a table cell: text as it is, absent as empty, anything else as compact JSON. */
export function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
