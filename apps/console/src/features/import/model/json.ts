import type { SourceRow } from './types';

/** A problem with one JSON record: its 1-based position and why it was not read. */
export interface JsonProblem {
  row: number;
  reason: string;
}

const isObject = (v: unknown): v is SourceRow => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a JSON array of objects. Items that are not objects are reported, not read. */
export function parseJsonArray(text: string): { rows: SourceRow[]; problems: JsonProblem[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`The file is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(data)) {
    throw new Error('The JSON file must hold an array of objects, one per row: [{"a": 1}, {"a": 2}].');
  }
  const rows: SourceRow[] = [];
  const problems: JsonProblem[] = [];
  data.forEach((item, i) => {
    if (isObject(item)) rows.push(item);
    else problems.push({ row: i + 1, reason: 'This item is not an object of column names to values.' });
  });
  return { rows, problems };
}

/**
 * Calls `onRow` for each line of JSON Lines text: one object per line, blank lines ignored. A line that
 * is not a JSON object goes to `onProblem`, so one bad line does not stop the file.
 */
export function forEachJsonLine(
  text: string,
  onRow: (row: SourceRow, index: number) => void,
  onProblem: (problem: JsonProblem, line: string) => void,
  maxRows = Number.POSITIVE_INFINITY,
): number {
  let index = 0;
  let start = 0;
  while (start < text.length && index < maxRows) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === '') continue;
    index += 1;
    const read = readJsonLine(line);
    if ('row' in read) onRow(read.row, index);
    else onProblem({ row: index, reason: read.reason }, line);
  }
  return index;
}

/** One trimmed, non-blank line of JSON Lines: the object it holds, or why it is not one. */
export function readJsonLine(line: string): { row: SourceRow } | { reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { reason: `Not valid JSON: ${(err as Error).message}` };
  }
  return isObject(value) ? { row: value } : { reason: 'This line is not a JSON object.' };
}

/** Keys of the rows in first-seen order. */
export function keysOf(rows: SourceRow[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  return [...keys];
}
