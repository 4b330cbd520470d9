import { gzipSync } from 'node:zlib';
import { expect, type Locator, type Page } from '@playwright/test';

/** Files the import tests drop, generated here: nothing is checked in. */

export interface FixtureFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A CSV with a header, an ISO 8601 time column and exactly one row whose time is not a date. */
export function csvWithOneBadRow(rows: number): FixtureFile {
  const lines = ['event_time,user,amount,country'];
  const base = Date.UTC(2024, 0, 1);
  for (let i = 0; i < rows; i++) {
    const time = i === 3 ? 'not a date' : new Date(base + i * 60_000).toISOString();
    lines.push(`${time},user_${i},${i * 10},${i % 2 === 0 ? 'jp' : 'us'}`);
  }
  return { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

/** JSON Lines with Unix-second times. */
export function jsonLines(rows: number): FixtureFile {
  const lines = Array.from({ length: rows }, (_, i) =>
    JSON.stringify({ ts: 1704067200 + i, page: `/p/${i}`, ms: i + 0.5 }),
  );
  return { name: 'clicks.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

// A minimal msgpack writer for the fixture: maps of strings to strings and non-negative integers.
function packString(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length < 32) return Buffer.concat([Buffer.from([0xa0 | bytes.length]), bytes]);
  return Buffer.concat([Buffer.from([0xd9, bytes.length]), bytes]);
}
function packValue(v: string | number): Buffer {
  if (typeof v === 'string') return packString(v);
  if (v < 128) return Buffer.from([v]);
  const b = Buffer.alloc(5);
  b[0] = 0xce;
  b.writeUInt32BE(v, 1);
  return b;
}
function packMap(record: Record<string, string | number>): Buffer {
  const entries = Object.entries(record);
  return Buffer.concat([
    Buffer.from([0x80 | entries.length]),
    ...entries.flatMap(([k, v]) => [packString(k), packValue(v)]),
  ]);
}

/** A ready-made bulk import part: the gzip of concatenated msgpack maps; the last `withoutTime` have no `time`. */
export function msgpackPart(rows: number, { withoutTime = 0 } = {}): FixtureFile {
  const records = Array.from({ length: rows }, (_, i) =>
    i >= rows - withoutTime
      ? packMap({ sku: `sku_${i}`, qty: i })
      : packMap({ time: 1704067200 + i, sku: `sku_${i}`, qty: i }),
  );
  return { name: 'ready.msgpack.gz', mimeType: 'application/gzip', buffer: gzipSync(Buffer.concat(records)) };
}

/** A bulk import part of the given records: gzip of their concatenated msgpack maps. */
const partOf = (records: Record<string, string | number>[]) => gzipSync(Buffer.concat(records.map(packMap)));

/** Drops files on an element the way a person dragging them from the desktop does. */
export async function dropFiles(page: Page, on: string | Locator, files: FixtureFile[]) {
  const payload = files.map((f) => ({ name: f.name, type: f.mimeType, b64: f.buffer.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const f of items) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, payload);
  const target = typeof on === 'string' ? page.getByTestId(on).first() : on;
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Creates a database (and optionally a table) through the API with the page's session. */
export async function createDatabase(page: Page, database: string, table?: string) {
  const headers = { 'x-svc-console': '1' };
  expect((await page.request.post(`/v3/database/create/${database}`, { headers })).status()).toBe(200);
  if (table) expect((await page.request.post(`/v3/table/create/${database}/${table}`, { headers })).status()).toBe(200);
}

/** The table as the API shows it. */
export async function showTable(page: Page, database: string, table: string) {
  const res = await page.request.get(`/v3/table/show/${database}/${table}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { count: number; schema: string };
}

/**
 * Imports records into an existing table the way the wizard does, through the bulk import session routes:
 * create, upload gzip msgpack parts, perform (waiting for the job), commit (waiting until committed).
 */
export async function bulkImportRecords(
  page: Page,
  database: string,
  table: string,
  parts: Record<string, string | number>[][],
) {
  const headers = { 'x-svc-console': '1' };
  const session = `e2e_${table}_${Date.now().toString(36)}`;
  const post = async (path: string) => {
    const res = await page.request.post(path, { headers });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  await post(`/v3/bulk_import/create/${session}/${database}/${table}`);
  for (const [i, records] of parts.entries()) {
    const res = await page.request.put(`/v3/bulk_import/upload_part/${session}/part${i + 1}`, {
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      data: partOf(records),
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await post(`/v3/bulk_import/freeze/${session}`);
  const { job_id: jobId } = await post(`/v3/bulk_import/perform/${session}`);
  const show = async () =>
    (await (await page.request.get(`/v3/bulk_import/show/${session}`)).json()) as Record<string, unknown>;
  await expect.poll(async () => (await show()).status, { timeout: 15_000 }).toBe('ready');
  const performed = await show();
  expect(performed.job_id).toBe(jobId);
  await post(`/v3/bulk_import/commit/${session}`);
  await expect.poll(async () => (await show()).status, { timeout: 15_000 }).toBe('committed');
  return performed as { valid_records: number; error_records: number };
}

/** Bulk import sessions left in the account. */
export async function bulkImportSessions(page: Page): Promise<string[]> {
  const res = await page.request.get('/v3/bulk_import/list');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { bulk_imports: { name: string }[] }).bulk_imports.map((s) => s.name);
}

/** JSON Lines whose key `extra_note` first appears in row `from` (then in every other row). */
export function jsonLinesWithLateKey(rows: number, from: number): FixtureFile {
  const lines = Array.from({ length: rows }, (_, i) => {
    const n = i + 1;
    const row: Record<string, string | number> = { ts: 1704067200 + n, id: n };
    if (n >= from && (n - from) % 2 === 0) row.extra_note = `note ${n}`;
    return JSON.stringify(row);
  });
  return { name: 'events.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

/** A CSV with Unix-second times whose `amount` is `N/A` in every hundredth row: 1 % bad numbers. */
export function csvWithBadNumbers(rows: number): FixtureFile {
  const lines = ['ts,id,amount'];
  for (let n = 1; n <= rows; n++) lines.push(`${1704067200 + n},${n},${n % 100 === 0 ? 'N/A' : n * 3}`);
  return { name: 'amounts.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

/** Fires one drag event carrying files on an element, as dragging them from the desktop does. */
export async function dragFiles(
  page: Page,
  on: Locator,
  type: 'dragenter' | 'dragover' | 'dragleave' | 'drop',
  files: FixtureFile[],
) {
  const payload = files.map((f) => ({ name: f.name, type: f.mimeType, text: f.buffer.toString('utf8') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const f of items) dt.items.add(new File([f.text], f.name, { type: f.type }));
    return dt;
  }, payload);
  await on.dispatchEvent(type, { dataTransfer });
}
