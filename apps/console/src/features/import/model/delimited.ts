import Papa from 'papaparse';

/** Delimiters the wizard offers and detects among. */
export const DELIMITERS = [',', '\t', ';', '|'] as const;

/** Why a delimiter the user typed cannot be used, or null: one character, not a quote or a line break. */
export function delimiterProblem(delimiter: string): string | null {
  if ([...delimiter].length !== 1) return 'Type one character.';
  if (delimiter === '"') return 'The double quote encloses fields; it cannot also separate them.';
  if (delimiter === '\n' || delimiter === '\r') return 'A line break ends rows; it cannot separate fields.';
  return null;
}

/** Rows a header may be preceded by (titles, notes) that the wizard looks through. */
export const MAX_HEADER_ROW = 10;

/**
 * Where the table starts in the first rows of a file: the first of the first ten rows as wide as most rows
 * (a title or a note above the table is narrower), and whether that row names the columns.
 */
export function detectTableStart(
  rows: string[][],
  isHeader: (rows: string[][]) => boolean,
): { skip: number; header: boolean } {
  const widths = new Map<number, number>();
  for (const r of rows) widths.set(r.length, (widths.get(r.length) ?? 0) + 1);
  let width = 0;
  let most = 0;
  for (const [w, n] of widths) {
    if (n > most || (n === most && w > width)) [width, most] = [w, n];
  }
  const limit = Math.min(MAX_HEADER_ROW, rows.length);
  let skip = 0;
  for (let k = 0; k < limit; k++) {
    const filled = rows[k]?.filter((c) => c.trim() !== '').length ?? 0;
    if (rows[k]?.length === width && filled > 0) {
      skip = k;
      break;
    }
  }
  return { skip, header: isHeader(rows.slice(skip)) };
}

export interface DelimitedSample {
  rows: string[][];
  /** The delimiter used: the given one, or the detected one when none was given. */
  delimiter: string;
  /** Rows whose field count differs from the first row's, 1-based, at most a few. */
  ragged: number[];
}

/** Parses (a sample of) delimited text into rows of cells. An empty delimiter means: detect it. */
export function parseDelimitedSample(text: string, delimiter: string, maxRows = 50): DelimitedSample {
  const result = Papa.parse<string[]>(text, {
    delimiter,
    delimitersToGuess: [...DELIMITERS],
    preview: maxRows,
    skipEmptyLines: 'greedy',
  });
  const rows = result.data;
  const width = rows[0]?.length ?? 0;
  const ragged: number[] = [];
  rows.forEach((r, i) => {
    if (r.length !== width && ragged.length < 5) ragged.push(i + 1);
  });
  return { rows, delimiter: result.meta.delimiter || delimiter || ',', ragged };
}

/** Column names for delimited data: the header cells, made unique, or `column_1`, `column_2`, ... */
export function delimitedColumns(first: string[] | undefined, header: boolean, width: number): string[] {
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < width; i++) {
    let name = header ? (first?.[i] ?? '').trim() : '';
    if (name === '') name = `column_${i + 1}`;
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    names.push(n === 0 ? name : `${name}_${n + 1}`);
  }
  return names;
}

/**
 * The column names widened for a row with more cells than the header: the extra cells are named
 * `column_N` after their position (made unique), so no cell is dropped unseen.
 */
export function widenColumns(columns: string[], width: number): string[] {
  if (width <= columns.length) return columns;
  const names = [...columns];
  const taken = new Set(columns);
  for (let i = columns.length; i < width; i++) {
    let name = `column_${i + 1}`;
    for (let k = 2; taken.has(name); k++) name = `column_${i + 1}_${k}`;
    taken.add(name);
    names.push(name);
  }
  return names;
}

/** A row of cells keyed by column name; missing cells are empty. */
export function rowFromCells(columns: string[], cells: string[]): Record<string, string> {
  const row: Record<string, string> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i] as string] = cells[i] ?? '';
  return row;
}

/**
 * Streams every row of delimited text to `onRow` (synchronously, in order), without holding them all.
 * Returns the number of data rows.
 */
export function forEachDelimitedRow(
  text: string,
  delimiter: string,
  header: boolean,
  onRow: (row: Record<string, string>, index: number, cells: string[]) => void,
): { columns: string[]; rows: number } {
  let columns: string[] | null = null;
  let index = 0;
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: 'greedy',
    step: (result) => {
      const cells = result.data;
      if (columns === null) {
        columns = delimitedColumns(cells, header, cells.length);
        if (header) return;
      }
      index += 1;
      onRow(rowFromCells(columns, cells), index, cells);
    },
  });
  return { columns: columns ?? [], rows: index };
}
