import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Executor } from './types';

/**
 * COPY … FROM STDIN through Kysely. A Kysely transaction does not expose its pg client, so the rows ride as
 * the only parameter of the COPY statement: every client of the storage's pool (postgres.ts `acceptCopy`)
 * recognises that parameter and runs the statement as a COPY on itself, on the transaction's connection, so
 * the rows commit or roll back with the rest of the transaction.
 */
class CopyData {
  constructor(readonly chunks: Iterable<Buffer>) {}
}

/** About how many bytes of COPY text are sent in one piece. */
const CHUNK_BYTES = 1 << 20;
const [TAB, NEWLINE] = [9, 10];

type Query = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

/** Makes a pool client run a statement whose only parameter is a CopyData as a COPY FROM STDIN. */
export function acceptCopy(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const copying: Query = async (text, values) => {
    const data = values?.length === 1 ? values[0] : undefined;
    if (!(data instanceof CopyData)) return query(text, values);
    const stream = client.query(copyFrom(text));
    await pipeline(Readable.from(data.chunks), stream);
    return { command: 'COPY', rowCount: stream.rowCount, rows: [], oid: 0, fields: [] };
  };
  client.query = ((...args: Parameters<Query>) =>
    args.length <= 2 && typeof args[0] === 'string' ? copying(...args) : query(...args)) as typeof client.query;
}

/**
 * Text as PostgreSQL can hold it: without the NUL character (U+0000), which its text types refuse (22021). The
 * embedded engines keep it; here a write is accepted all the same, with the character left out.
 */
export function pgText(s: string): string {
  return s.includes('\0') ? s.replaceAll('\0', '') : s;
}

/**
 * One value in COPY's text format: NULL as \N, bytes as \x hex, the format's own characters escaped, and NUL
 * left out as pgText does.
 */
function copyText(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return /[\\\t\n\r\0]/.test(v) ? v.replace(/[\\\t\n\r\0]/g, escapeChar) : v;
  if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
  return String(v);
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '' };
const escapeChar = (c: string) => ESCAPES[c] as string;

/**
 * Rows as COPY text, encoded straight into buffers of about CHUNK_BYTES (a row may end in the next one). Not
 * strings: a string of a megabyte built line by line is garbage the collector copies, and was then encoded again.
 */
function* copyChunks(rows: Iterable<readonly unknown[]>): Generator<Buffer> {
  let buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  let at = 0;
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const text = copyText(row[i]);
      // UTF-8 takes at most 3 bytes per UTF-16 unit; then the tab or the newline.
      const most = 3 * text.length + 1;
      if (at + most > buffer.length) {
        if (at > 0) yield buffer.subarray(0, at);
        buffer = Buffer.allocUnsafe(Math.max(2 * CHUNK_BYTES, most));
        at = 0;
      }
      at += buffer.write(text, at);
      buffer[at++] = i === row.length - 1 ? NEWLINE : TAB;
    }
    if (at >= CHUNK_BYTES) {
      yield buffer.subarray(0, at);
      buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
      at = 0;
    }
  }
  if (at > 0) yield buffer.subarray(0, at);
}

/**
 * Copies rows into `table` (an already quoted name) on `ex`, which must be a storage opened by
 * openPostgresStorage or one of its transactions. Values are given as PostgreSQL reads their text: numbers,
 * bigints, strings, Buffers (for BYTEA), null. Rows are read lazily while PostgreSQL reads the text before them,
 * each written out before the next is asked for, so a generator may hand out one array again and again.
 */
export async function copyRows(
  ex: Executor,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly unknown[]>,
): Promise<void> {
  const statement = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
  await ex.executeQuery(CompiledQuery.raw(statement, [new CopyData(copyChunks(rows))]));
}
