import { defaultPartLimits, encodeRecords, gzip, RecordScanner } from '@svc/bulk-format';
import Papa from 'papaparse';
import { rowConverter } from '../model/convert';
import { delimitedColumns, rowFromCells } from '../model/delimited';
import { decodeText } from '../model/detect';
import { forEachJsonLine, parseJsonArray } from '../model/json';
import { checkFileSize } from '../model/sizeLimits';
import type { ColumnPlan, ReadSettings, Rejection, SourceRow, TimePlan } from '../model/types';

/** What the wizard asks the worker to read, convert and encode. */
export interface PrepareRequest {
  files: { file: File; settings: ReadSettings }[];
  columns: ColumnPlan[];
  time: TimePlan;
  /** Unix seconds: the time of rows when the plan says "use the import time". */
  importTime: number;
  /** A part is closed at this many rows, or at `partBytes` of source data, whichever comes first. */
  partRows: number;
  partBytes: number;
  /** How many rejected rows to keep (with their values) for display and download. */
  keepRejected: number;
}

/** One gzip msgpack part, ready to upload. */
export interface PreparedPart {
  index: number;
  name: string;
  file: string;
  rows: number;
  bytes: Uint8Array;
}

export interface PrepareSummary {
  rows: number;
  accepted: number;
  rejected: number;
  kept: Rejection[];
  parts: number;
  millis: number;
}

export type PrepareEvent =
  | { type: 'progress'; file: number; bytesDone: number; bytesTotal: number; rows: number; rejected: number }
  | { type: 'part'; part: PreparedPart }
  | { type: 'done'; summary: PrepareSummary }
  | { type: 'error'; message: string };

const PROGRESS_EVERY = 20_000;

/**
 * Reads every file, converts each row with the plan, and emits gzip msgpack parts of bounded size as
 * they are ready. Runs in a Web Worker (and in tests): nothing here touches the page.
 */
export async function prepareParts(req: PrepareRequest, emit: (event: PrepareEvent) => void): Promise<PrepareSummary> {
  // Refuse files too big to hold, before reading any: a clear message instead of a crashed tab.
  for (const { file, settings } of req.files) {
    const size = checkFileSize(file.name, file.size, settings.kind);
    if (size.level === 'refuse') throw new Error(size.message);
  }
  const started = performance.now();
  const convert = rowConverter(req.columns, req.time, req.importTime);
  const bytesTotal = req.files.reduce((n, f) => n + f.file.size, 0);
  let bytesBefore = 0;
  let rows = 0;
  let accepted = 0;
  let rejected = 0;
  let partIndex = 0;
  const kept: Rejection[] = [];
  const pending: Promise<void>[] = [];
  let records: Record<string, unknown>[] = [];
  let partSource = 0;
  let fileName = '';

  const flush = () => {
    if (records.length === 0) return;
    partIndex += 1;
    const index = partIndex;
    const batch = records;
    const file = fileName;
    records = [];
    partSource = 0;
    const raw = encodeRecords(batch);
    pending.push(
      gzip(raw).then((bytes) =>
        emit({
          type: 'part',
          part: { index, name: `part-${String(index).padStart(5, '0')}`, file, rows: batch.length, bytes },
        }),
      ),
    );
  };
  const drain = async () => {
    const all = pending.splice(0);
    await Promise.all(all);
  };
  const take = (fileIndex: number, row: SourceRow, n: number, size: number, bytesDone: number) => {
    rows += 1;
    const result = convert(row);
    if (result.ok) {
      accepted += 1;
      records.push(result.record);
      partSource += size;
      if (records.length >= req.partRows || partSource >= req.partBytes) flush();
    } else {
      rejected += 1;
      if (kept.length < req.keepRejected) kept.push({ row: n, file: fileName, reason: result.reason, values: row });
    }
    if (rows % PROGRESS_EVERY === 0) {
      emit({ type: 'progress', file: fileIndex, bytesDone: bytesBefore + bytesDone, bytesTotal, rows, rejected });
    }
  };

  for (const [fileIndex, { file, settings }] of req.files.entries()) {
    fileName = file.name;
    if (settings.kind === 'msgpack') {
      flush();
      partIndex += 1;
      const bytes = new Uint8Array(await file.arrayBuffer());
      const count = await countRecords(file);
      rows += count;
      accepted += count;
      const name = `part-${String(partIndex).padStart(5, '0')}-${file.name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
      emit({ type: 'part', part: { index: partIndex, name, file: file.name, rows: count, bytes } });
    } else {
      const text = decodeText(new Uint8Array(await file.arrayBuffer()), settings.encoding).text;
      const scale = text.length > 0 ? file.size / text.length : 1;
      if (settings.kind === 'json') {
        const { rows: items, problems } = parseJsonArray(text);
        for (const [i, row] of items.entries()) {
          take(fileIndex, row, i + 1, 64, Math.round(((i + 1) / items.length) * file.size));
        }
        for (const p of problems) rejectRaw(p.row, p.reason, {});
      } else if (settings.kind === 'jsonl') {
        let at = 0;
        forEachJsonLine(
          text,
          (row, n) => {
            at += 64;
            take(fileIndex, row, n, 64, Math.min(file.size, Math.round(at * scale)));
          },
          (p, line) => rejectRaw(p.row, p.reason, { line }),
        );
      } else {
        await readDelimited(text, settings, (row, n, size, offset) =>
          take(fileIndex, row, n, size, Math.round(offset * scale)),
        );
      }
    }
    bytesBefore += file.size;
    emit({ type: 'progress', file: fileIndex, bytesDone: bytesBefore, bytesTotal, rows, rejected });
  }
  flush();
  await drain();
  const summary = { rows, accepted, rejected, kept, parts: partIndex, millis: Math.round(performance.now() - started) };
  emit({ type: 'done', summary });
  return summary;

  function rejectRaw(n: number, reason: string, values: SourceRow) {
    rows += 1;
    rejected += 1;
    if (kept.length < req.keepRejected) kept.push({ row: n, file: fileName, reason, values });
  }

  /** Delimited text in chunks, pausing after each so finished parts are compressed and sent on the way. */
  function readDelimited(
    text: string,
    settings: ReadSettings,
    onRow: (row: SourceRow, n: number, size: number, offset: number) => void,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      let columns: string[] | null = null;
      let n = 0;
      let skip = settings.skipRows ?? 0;
      Papa.parse<string[]>(text, {
        delimiter: settings.delimiter,
        skipEmptyLines: 'greedy',
        chunkSize: 4 * 1024 * 1024,
        chunk: (result: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
          parser.pause();
          const offset = result.meta.cursor;
          for (const cells of result.data) {
            if (skip > 0) {
              skip -= 1;
              continue;
            }
            if (columns === null) {
              columns = delimitedColumns(cells, settings.header, cells.length);
              if (settings.header) continue;
            }
            n += 1;
            let size = cells.length;
            for (const c of cells) size += c.length;
            onRow(rowFromCells(columns, cells), n, size, offset);
          }
          drain().then(() => parser.resume(), reject);
        },
        complete: () => resolve(),
        error: (err: Error) => reject(err),
      });
    });
  }
}

/** The number of records in a ready-made part (it is read through once, under the server's limits). */
async function countRecords(file: File): Promise<number> {
  const scanner = new RecordScanner(defaultPartLimits);
  const reader = file.stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    scanner.push(value);
  }
  scanner.end();
  return scanner.records;
}
