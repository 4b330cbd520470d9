import { Readable } from 'node:stream';
import type { ResultFormat } from '@svc/contracts';
import { UnpackrStream } from 'msgpackr';
import { z } from 'zod';
import { csvQuote } from '../platform/csv';
import { ApiError, errorBody } from '../platform/errors';
import { parseStored } from '../platform/storedJson';
import type { JobView } from './jobStore';
import type { ResultStore, StoredResult } from './resultStore';

/** A query's result columns as its job records them: `[name, type]` pairs. */
const resultSchema = z.array(z.tuple([z.string(), z.string()]));

/**
 * GET /v3/job/result bodies (wire-compat §2.3). The stored results (resultStore.ts) serve `msgpack` (concatenated arrays)
 * and `msgpack.gz` as they are, with Range support (206, ETag, If-Range) for resumable and parallel
 * downloads; `json` (one array per line), `csv` and `tsv` are decoded from the msgpack file as they stream.
 */

const CONTENT_TYPES: Record<ResultFormat, string> = {
  msgpack: 'application/x-msgpack',
  'msgpack.gz': 'application/octet-stream',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
};

function noResult(message: string): ApiError {
  return new ApiError(404, 'Resource not found', message, { resource: 'job result' });
}

/** The result of a finished job, or a 404 saying why there is none. */
async function storedResult(store: ResultStore, job: JobView, format: ResultFormat): Promise<StoredResult> {
  if (job.status === 'queued' || job.status === 'running') {
    throw noResult(`Job ${job.id} is ${job.status}: its result can be read once its status is success.`);
  }
  if (job.status !== 'success') throw noResult(`Job ${job.id} ended with status ${job.status}; it has no result.`);
  if (!job.result_path) throw noResult(`Job ${job.id} has no result to download.`);
  const stored = await store.open(job, format === 'msgpack.gz' ? 'gzip' : 'msgpack');
  if (!stored) throw noResult(`The result file of job ${job.id} is missing.`);
  return stored;
}

type Range = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is ignored (the whole body is sent). */
function parseRange(header: string | undefined, size: number): Range {
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

function fileResponse(job: JobView, stored: StoredResult, format: ResultFormat, headers: Headers): Response {
  const size = stored.size;
  const etag = `"job-${job.id}-${format === 'msgpack' ? 'mp' : 'gz'}-${size}"`;
  const base = { 'content-type': CONTENT_TYPES[format], 'accept-ranges': 'bytes', etag };
  const ifRange = headers.get('if-range');
  const range = ifRange && ifRange !== etag ? null : parseRange(headers.get('range') ?? undefined, size);
  if (range === 'unsatisfiable') {
    const error = new ApiError(
      416,
      'Range Not Satisfiable',
      `The result has ${size} bytes; ask for a range within them.`,
    );
    return Response.json(errorBody(error), { status: 416, headers: { ...base, 'content-range': `bytes */${size}` } });
  }
  const stream = (start: number, end: number) =>
    Readable.toWeb(Readable.from(stored.read(start, end))) as unknown as ReadableStream<Uint8Array>;
  if (range) {
    return new Response(size === 0 ? null : stream(range.start, range.end), {
      status: 206,
      headers: {
        ...base,
        'content-range': `bytes ${range.start}-${range.end}/${size}`,
        'content-length': String(range.end - range.start + 1),
      },
    });
  }
  return new Response(size === 0 ? null : stream(0, size - 1), {
    status: 200,
    headers: { ...base, 'content-length': String(size) },
  });
}

/** JSON text of a result value: 64-bit integers stay exact, binary becomes base64, nested values JSON. */
function jsonValue(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString('base64'));
  return JSON.stringify(v === undefined ? null : v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x));
}

function textValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'object') return jsonValue(v);
  return String(v);
}

function csvField(v: unknown): string {
  return csvQuote(textValue(v));
}

function tsvField(v: unknown): string {
  return textValue(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

const LINE_FORMATS = {
  json: (row: unknown[]) => `[${row.map(jsonValue).join(',')}]\n`,
  csv: (row: unknown[]) => `${row.map(csvField).join(',')}\r\n`,
  tsv: (row: unknown[]) => `${row.map(tsvField).join('\t')}\n`,
};

async function* lines(stored: StoredResult, format: keyof typeof LINE_FORMATS, header: string[] | null) {
  const line = LINE_FORMATS[format];
  let batch = header ? line(header) : '';
  const bytes = stored.size === 0 ? Readable.from([]) : Readable.from(stored.read(0, stored.size - 1));
  const rows = bytes.pipe(new UnpackrStream({ useRecords: false }));
  for await (const row of rows) {
    batch += line(row as unknown[]);
    if (batch.length >= 64 * 1024) {
      yield Buffer.from(batch);
      batch = '';
    }
  }
  if (batch) yield Buffer.from(batch);
}

/** The response for GET /v3/job/result/:id. `header` adds the column names first (json, csv, tsv). */
export async function resultResponse(
  store: ResultStore,
  job: JobView,
  format: ResultFormat,
  header: boolean,
  requestHeaders: Headers,
): Promise<Response> {
  const stored = await storedResult(store, job, format);
  if (format === 'msgpack' || format === 'msgpack.gz') return fileResponse(job, stored, format, requestHeaders);
  const names = header
    ? parseStored(resultSchema, job.hive_result_schema ?? '[]', 'jobs.hive_result_schema').map(([name]) => name)
    : null;
  const body = Readable.toWeb(Readable.from(lines(stored, format, names))) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers: { 'content-type': CONTENT_TYPES[format] } });
}
