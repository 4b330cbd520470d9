import { defaultPartLimits, encodeRecords, gzip, RecordScanner } from '@svc/bulk-format';
import { rowConverter } from '../model/convert';
import { checkFileSize } from '../model/sizeLimits';
import type { ColumnPlan, ReadSettings, Rejection, SourceRow, TimePlan } from '../model/types';
import { readRows } from './readRows';

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
  /** Rows that cannot be read or have no valid time. */
  rejected: number;
  /** Rows left out by the user's fix for cells that will not convert. */
  skipped: number;
  /** Cells set to null by the user's fix. */
  nulled: number;
  /** The first rejected and skipped rows, with their values and why. */
  kept: Rejection[];
  parts: number;
  millis: number;
}

export type PrepareEvent =
  | { type: 'progress'; file: number; bytesDone: number; bytesTotal: number; rows: number; rejected: number }
  | { type: 'part'; part: PreparedPart }
  | { type: 'done'; summary: PrepareSummary }
  | { type: 'error'; message: string };

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
  let skipped = 0;
  let nulled = 0;
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
  const take = (row: SourceRow, n: number, size: number) => {
    rows += 1;
    const result = convert(row);
    if (result.ok) {
      accepted += 1;
      nulled += result.nulled;
      records.push(result.record);
      partSource += size;
      if (records.length >= req.partRows || partSource >= req.partBytes) flush();
      return;
    }
    if (result.skipped) skipped += 1;
    else rejected += 1;
    if (kept.length < req.keepRejected) {
      kept.push({ row: n, file: fileName, reason: result.reason, values: row, skipped: result.skipped === true });
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
      await readRows(file, settings, {
        row: (row, n, size) => take(row, n, size),
        problem: (n, reason, values) => rejectRaw(n, reason, values),
        // Between chunks: let finished parts be compressed and sent on the way, and say how far it got.
        chunk: async (bytesDone) => {
          await drain();
          emit({ type: 'progress', file: fileIndex, bytesDone: bytesBefore + bytesDone, bytesTotal, rows, rejected });
        },
      });
    }
    bytesBefore += file.size;
    emit({ type: 'progress', file: fileIndex, bytesDone: bytesBefore, bytesTotal, rows, rejected });
  }
  flush();
  await drain();
  const summary = {
    rows,
    accepted,
    rejected,
    skipped,
    nulled,
    kept,
    parts: partIndex,
    millis: Math.round(performance.now() - started),
  };
  emit({ type: 'done', summary });
  return summary;

  function rejectRaw(n: number, reason: string, values: SourceRow) {
    rows += 1;
    rejected += 1;
    if (kept.length < req.keepRejected) kept.push({ row: n, file: fileName, reason, values });
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
