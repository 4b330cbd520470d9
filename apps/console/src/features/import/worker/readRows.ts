import Papa from 'papaparse';
import { delimitedColumns, rowFromCells, widenColumns } from '../model/delimited';
import { decodeText } from '../model/detect';
import { parseJsonArray, readJsonLine } from '../model/json';
import type { ReadSettings, SourceRow } from '../model/types';

/** Where the rows of a file go, as they are read. */
export interface RowSink {
  /** A row; `n` is its 1-based number among the file's data rows, `size` about its bytes in the file. */
  row(row: SourceRow, n: number, size: number): void;
  /** A record that cannot be read as a row (a bad JSON line, an item that is not an object). */
  problem(n: number, reason: string, values: SourceRow): void;
  /** After each chunk, with the file's bytes read so far: awaited, so the reader can be paused. */
  chunk(bytesDone: number): Promise<void> | void;
}

/** Bytes read at a time: the memory a text file needs is about this, not the file's size. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Streams the rows of a text file (CSV, TSV, JSON Lines) chunk by chunk, decoding as it goes, so a file
 * of hundreds of megabytes is never held whole. A JSON array is parsed whole (it is one value). The same
 * reader serves the whole-file scan and the encoding, so row numbers agree between them.
 */
export async function readRows(
  file: File,
  settings: ReadSettings,
  sink: RowSink,
  chunkBytes = CHUNK_BYTES,
): Promise<void> {
  if (settings.kind === 'msgpack') throw new Error(`${file.name} is a ready-made part, not rows of text.`);
  if (settings.kind === 'json') {
    const { text } = decodeText(new Uint8Array(await file.arrayBuffer()), settings.encoding);
    const { rows, problems } = parseJsonArray(text);
    for (const [i, row] of rows.entries()) sink.row(row, i + 1, 64);
    for (const p of problems) sink.problem(p.row, p.reason, {});
    await sink.chunk(file.size);
    return;
  }
  const segment = settings.kind === 'jsonl' ? jsonLinesReader(sink) : delimitedReader(settings, sink);
  const decoder = new TextDecoder(settings.encoding);
  for (let at = 0; at < file.size; at += chunkBytes) {
    const bytes = new Uint8Array(await file.slice(at, at + chunkBytes).arrayBuffer());
    segment.push(decoder.decode(bytes, { stream: true }));
    await sink.chunk(Math.min(file.size, at + chunkBytes));
  }
  segment.push(decoder.decode());
  segment.end();
  await sink.chunk(file.size);
}

interface SegmentReader {
  push(text: string): void;
  end(): void;
}

/** JSON Lines: whole lines are read, the part after the last line break waits for the next chunk. */
function jsonLinesReader(sink: RowSink): SegmentReader {
  let carry = '';
  let n = 0;
  const lines = (text: string) => {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end).trim();
      start = end + 1;
      if (line === '') continue;
      n += 1;
      const read = readJsonLine(line);
      if ('row' in read) sink.row(read.row, n, line.length + 1);
      else sink.problem(n, read.reason, { line });
    }
  };
  return {
    push(text) {
      const all = carry + text;
      const cut = all.lastIndexOf('\n');
      if (cut < 0) {
        carry = all;
        return;
      }
      lines(all.slice(0, cut));
      carry = all.slice(cut + 1);
    },
    end() {
      lines(carry);
      carry = '';
    },
  };
}

/**
 * CSV and TSV: text is parsed up to the last line break outside quotes (a quoted field may hold line
 * breaks), the rest waits for the next chunk. Rows wider than the header get `column_N` names; rows with
 * fewer fields are problems (rejected), named by their row and field counts.
 */
function delimitedReader(settings: ReadSettings, sink: RowSink): SegmentReader {
  let carry = '';
  let scanned = 0;
  let quoted = false;
  let columns: string[] | null = null;
  /** How many fields the header (or, without one, the first row) has: every row should have as many. */
  let width = 0;
  let skip = settings.skipRows ?? 0;
  let n = 0;
  const parse = (text: string) => {
    if (text === '') return;
    const result = Papa.parse<string[]>(text, { delimiter: settings.delimiter, skipEmptyLines: 'greedy' });
    for (const cells of result.data) {
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      if (columns === null) {
        columns = delimitedColumns(cells, settings.header, cells.length);
        width = cells.length;
        if (settings.header) continue;
      }
      if (cells.length > columns.length) columns = widenColumns(columns, cells.length);
      n += 1;
      // A short row has lost fields (a cut line, a missing delimiter): which value is which is unknown.
      if (cells.length < width) {
        const fields = `${cells.length} field${cells.length === 1 ? '' : 's'}`;
        const first = settings.header ? 'the header has' : 'the first row has';
        sink.problem(n, `row ${n} has ${fields}, ${first} ${width}`, rowFromCells(columns, cells));
        continue;
      }
      let size = cells.length;
      for (const c of cells) size += c.length;
      sink.row(rowFromCells(columns, cells), n, size);
    }
  };
  return {
    push(text) {
      carry += text;
      let cut = -1;
      for (let i = scanned; i < carry.length; i++) {
        const c = carry.charCodeAt(i);
        if (c === 34) quoted = !quoted;
        else if (c === 10 && !quoted) cut = i;
      }
      scanned = carry.length;
      if (cut < 0) return;
      parse(carry.slice(0, cut + 1));
      // The rest was scanned already: quotes in it are counted in `quoted`.
      carry = carry.slice(cut + 1);
      scanned = carry.length;
    },
    end() {
      parse(carry);
      carry = '';
    },
  };
}
