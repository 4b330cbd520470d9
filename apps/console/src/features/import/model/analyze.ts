import { decodeBatch, defaultPartLimits, RecordScanner } from '@svc/bulk-format';
import { delimitedColumns, detectTableStart, MAX_HEADER_ROW, parseDelimitedSample, rowFromCells } from './delimited';
import { decodeText, detectHeader, detectKind, utf16Of } from './detect';
import { forEachJsonLine, keysOf, parseJsonArray } from './json';
import type { FileKind, ReadSettings, SourceRow, TextEncoding } from './types';

/** What the wizard learned from the start of a file: settings, columns and the first rows. */
export interface FileAnalysis {
  settings: ReadSettings;
  columns: string[];
  sample: SourceRow[];
  bom: boolean;
  invalid: number;
  firstInvalidLine: number | null;
  /** Rows (1-based) whose number of fields differs from the first row. */
  ragged: number[];
  /** Problems that stop this file from being read as it is set. */
  error: string | null;
}

const SAMPLE_BYTES = 512 * 1024;
const SAMPLE_ROWS = 50;

/** The start of a text file as text, cut at the last full line when the file is longer. */
async function headText(file: File, encoding: TextEncoding, whole: boolean, json = false) {
  const blob = whole ? file : file.slice(0, SAMPLE_BYTES);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const decoded = decodeText(bytes, encoding);
  let { text } = decoded;
  // A partial last line would read as a short row; a JSON array is closed by jsonArrayHead instead.
  if (!whole && !json && file.size > SAMPLE_BYTES) text = text.slice(0, Math.max(0, text.lastIndexOf('\n')));
  return { ...decoded, text, bytes };
}

/**
 * The first objects of a large JSON array, from its first bytes only (parsing the whole file here would hold
 * the page): the text is closed after one of the last `},` and parsed; nested objects may need a few tries.
 */
export function jsonArrayHead(head: string): SourceRow[] {
  let end = head.length;
  for (let tries = 0; tries < 50; tries++) {
    end = head.lastIndexOf('},', end - 1);
    if (end < 0) break;
    try {
      const rows = parseJsonArray(`${head.slice(0, end + 1)}]`).rows;
      if (rows.length > 0) return rows.slice(0, SAMPLE_ROWS);
    } catch {
      // Closed inside a nested object: try an earlier boundary.
    }
  }
  throw new Error('The start of this JSON file is not an array of objects: [{"a": 1}, {"a": 2}].');
}

async function msgpackSample(file: File): Promise<SourceRow[]> {
  const scanner = new RecordScanner(defaultPartLimits);
  const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const rows: SourceRow[] = [];
  try {
    while (rows.length < SAMPLE_ROWS) {
      const { done, value } = await reader.read();
      if (done) break;
      rows.push(...(decodeBatch(scanner.push(value)) as SourceRow[]));
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return rows.slice(0, SAMPLE_ROWS);
}

/**
 * Reads the start of a file and works out how to read it; `given` overrides what would be detected
 * (kind, encoding, delimiter, header row).
 */
export async function analyzeFile(file: File, given: Partial<ReadSettings> = {}): Promise<FileAnalysis> {
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  const kind: FileKind = given.kind ?? detectKind(file.name, head);
  const encoding: TextEncoding = given.encoding ?? utf16Of(head) ?? 'utf-8';
  const base = { bom: false, invalid: 0, firstInvalidLine: null, ragged: [] as number[], error: null };
  const settings: ReadSettings = { kind, encoding, delimiter: given.delimiter ?? '', header: given.header ?? true };
  try {
    if (kind === 'msgpack') {
      const sample = await msgpackSample(file);
      return { ...base, settings, columns: keysOf(sample), sample };
    }
    const text = await headText(file, encoding, kind === 'json' && file.size <= SAMPLE_BYTES, kind === 'json');
    const found = { bom: text.bom, invalid: text.invalid, firstInvalidLine: text.firstInvalidLine };
    if (kind === 'json') {
      const rows = file.size <= SAMPLE_BYTES ? parseJsonArray(text.text).rows : jsonArrayHead(text.text);
      return { ...base, ...found, settings, columns: keysOf(rows), sample: rows.slice(0, SAMPLE_ROWS) };
    }
    if (kind === 'jsonl') {
      const rows: SourceRow[] = [];
      forEachJsonLine(
        text.text,
        (r) => rows.push(r),
        () => {},
        SAMPLE_ROWS,
      );
      return { ...base, ...found, settings, columns: keysOf(rows), sample: rows };
    }
    const wanted = given.delimiter ?? (kind === 'tsv' ? '\t' : '');
    const parsed = parseDelimitedSample(text.text, wanted, SAMPLE_ROWS + MAX_HEADER_ROW + 1);
    const detected = detectTableStart(parsed.rows.slice(0, 20 + MAX_HEADER_ROW), detectHeader);
    const skipRows = given.skipRows ?? detected.skip;
    const table = parsed.rows.slice(skipRows);
    const header = given.header ?? (skipRows === detected.skip ? detected.header : detectHeader(table.slice(0, 20)));
    const width = Math.max(0, ...table.map((r) => r.length));
    const columns = delimitedColumns(table[0], header, width);
    const dataRows = (header ? table.slice(1) : table).slice(0, SAMPLE_ROWS);
    // Rows (numbered as in the file's non-empty rows) whose width differs from the table's first row.
    const ragged = table
      .flatMap((r, i) => (r.length !== (table[0]?.length ?? 0) ? [i + 1 + skipRows] : []))
      .slice(0, 5);
    return {
      ...base,
      ...found,
      settings: { ...settings, delimiter: parsed.delimiter, header, skipRows },
      columns,
      sample: dataRows.map((cells) => rowFromCells(columns, cells)),
      ragged,
    };
  } catch (err) {
    return { ...base, settings, columns: [], sample: [], error: (err as Error).message };
  }
}
