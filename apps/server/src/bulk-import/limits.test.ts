import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defaultPartLimits, encodePart, encodeRecords, type PartLimits } from '@svc/bulk-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { createHarness, type Harness } from '../testing/harness';
import { bulkImportOptions, DEFAULT_MAX_PARTS } from './options';
import { bulkDeps, databaseAndTable, failure, ok, upload } from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await databaseAndTable(h, 'shop', 'events');
  await ok(h.call('POST', '/v3/bulk_import/create/s1/shop/events'));
});
afterEach(() => h.close());

const MiB = 1024 * 1024;

function withLimits(limits: Partial<PartLimits>) {
  bulkDeps(h).bulkImport = { limits: { ...defaultPartLimits, ...limits } };
}

/** Uploads without a Content-Length header, so only the streaming checks can stop it. */
const uploadUndeclared = (bytes: Uint8Array) =>
  h.call('PUT', '/v3/bulk_import/upload_part/s1/p1', {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });

/**
 * A gzip bomb: `members` copies of one gzip member, each holding a record with an 8 MiB string of
 * zeros. Gzip members may be concatenated, so it stays a valid part while it expands about 1000 times.
 */
function bomb(members: number): Buffer {
  const zeros = Buffer.alloc(8 * MiB - 64);
  const record = Buffer.concat([
    Buffer.from(encodeRecords([{ time: 1, s: '' }])).subarray(0, -1),
    strHeader(zeros.length),
    zeros,
  ]);
  const member = gzipSync(record, { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

/** A msgpack str32 header. */
function strHeader(length: number): Buffer {
  const b = Buffer.alloc(5);
  b[0] = 0xdb;
  b.writeUInt32BE(length, 1);
  return b;
}

async function expectNothingStored() {
  expect((await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts).toEqual([]);
  const dir = join(h.dataDir, 'bulk_import', String(h.admin.accountId));
  const files = existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [];
  expect(files.filter((f) => f.includes('.msgpack'))).toEqual([]);
}

describe('bulk import part limits', () => {
  it('refuses a part whose declared size is over the compressed limit before reading it (413)', async () => {
    withLimits({ maxCompressedBytes: 1000 });
    const part = await encodePart(Array.from({ length: 500 }, (_, i) => ({ time: i, v: Math.random() })));
    const message = await failure(upload(h, 's1', 'p1', part), 413);
    expect(message).toMatch(/more than the limit of 1000: split it into smaller parts/);
    await expectNothingStored();
  });

  it('refuses a part over the compressed limit while it streams, with no size declared (413)', async () => {
    withLimits({ maxCompressedBytes: 1000 });
    const part = await encodePart(Array.from({ length: 500 }, (_, i) => ({ time: i, v: Math.random() })));
    expect(await failure(uploadUndeclared(part), 413)).toMatch(/larger than the limit of 1000 bytes compressed/);
    await expectNothingStored();
  });

  it('stops a gzip bomb at the decompressed limit (413) and keeps nothing', async () => {
    withLimits({ maxDecompressedBytes: 16 * MiB });
    const part = bomb(8);
    expect(part.length).toBeLessThan(200 * 1024);
    expect(await failure(upload(h, 's1', 'p1', part), 413)).toMatch(/expands to more than the limit of 16 MiB/);
    await expectNothingStored();
  });

  it('stops a 2 GiB gzip bomb at the default limit without holding it in memory', async () => {
    const part = bomb(256);
    expect(part.length).toBeLessThan(4 * MiB);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const message = await failure(upload(h, 's1', 'p1', part), 413);
    clearInterval(sampler);
    expect(message).toMatch(/expands to more than the limit of 1024 MiB/);
    expect(peak - before).toBeLessThan(256 * MiB);
    await expectNothingStored();
  }, 60_000);

  it('refuses bytes that are not gzip, a truncated gzip and an empty body (400)', async () => {
    const part = await encodePart([{ time: 1, s: 'x'.repeat(5000) }]);
    const cases: [Uint8Array, RegExp][] = [
      [new TextEncoder().encode('time,user\n1,ann\n'), /not a valid gzip file/],
      [part.subarray(0, part.length - 20), /not a valid gzip file/],
      [new Uint8Array(0), /empty/],
    ];
    for (const [bytes, message] of cases) {
      expect(await failure(upload(h, 's1', 'p1', bytes), 400)).toMatch(message);
    }
    await expectNothingStored();
  });

  it('refuses gzip that holds anything but msgpack maps (400)', async () => {
    const cases: [Uint8Array, RegExp][] = [
      [gzipSync('{"time": 1700000000}\n'), /Record 1: each record must be a msgpack map/],
      [gzipSync(Buffer.from([0x81, 0x01, 0x01])), /every key of a record must be a string/],
      [gzipSync(Buffer.from([0x81, 0xa1, 0x61, 0xc7, 0x01, 0x07, 0x00])), /extension type 7 is not supported/],
      [gzipSync(Buffer.from([0x81, 0xa1, 0x61, 0xc1])), /0xc1 is never used/],
      [gzipSync(Buffer.concat([Buffer.from(encodeRecords([{ a: 1 }])), Buffer.from([0x82, 0xa1])])), /truncated/],
    ];
    for (const [bytes, message] of cases) {
      expect(await failure(upload(h, 's1', 'p1', bytes), 400)).toMatch(message);
    }
    await expectNothingStored();
  });

  it('refuses strings, arrays, maps and nesting past the msgpack limits (400)', async () => {
    withLimits({ maxStringBytes: 100, maxArrayLength: 10, maxMapSize: 5, maxDepth: 4, maxRecordBytes: 1024 });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ time: 1, s: 'x'.repeat(101) }, /string value of 101 bytes is longer than the limit of 100 bytes/],
      [{ time: 1, a: Array.from({ length: 11 }, (_, i) => i) }, /array of 11 items is longer than the limit of 10/],
      [{ time: 1, a: 1, b: 2, c: 3, d: 4, e: 5 }, /map of 6 entries has more than the limit of 5/],
      [{ time: 1, a: { b: { c: { d: {} } } } }, /nested deeper than the limit of 4 levels/],
      [
        {
          time: 1,
          a: Array.from({ length: 10 }, () => 'y'.repeat(90)),
          b: Array.from({ length: 10 }, () => 'z'.repeat(90)),
        },
        /record is larger than the limit of 1024 bytes/,
      ],
    ];
    for (const [record, message] of cases) {
      const res = upload(h, 's1', 'p1', await encodePart([{ time: 1 }, record]));
      const text = await failure(res, 400);
      expect(text).toMatch(message);
      expect(text).toMatch(/^Record 2: /);
    }
    // Just within every limit is fine.
    await ok(upload(h, 's1', 'p1', await encodePart([{ time: 1, s: 'x'.repeat(100), a: { b: { c: 1 } } }])));
  });
});

describe('the number of parts in a session', () => {
  const names = async () => (await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts;

  it('takes up to SVC_BULK_IMPORT_MAX_PARTS parts and refuses one more with 422, saying what to do', async () => {
    h.deps.config.bulkImportMaxParts = 3;
    const part = await encodePart([{ time: 1, a: 1 }]);
    for (const name of ['p1', 'p2', 'p3']) await ok(upload(h, 's1', name, part));
    const refused = await failure(upload(h, 's1', 'p4', part), 422);
    expect(refused).toMatch(/already has 3 parts.*SVC_BULK_IMPORT_MAX_PARTS/);
    expect(await names()).toEqual(['p1', 'p2', 'p3']);
    // The refused part left no file behind: at most the three listed parts' files are on disk.
    const partFiles = (path: string): number =>
      readdirSync(path, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? partFiles(join(path, e.name)) : e.name.endsWith('.msgpack.gz') ? 1 : 0),
        0,
      );
    expect(partFiles(h.dataDir)).toBeLessThanOrEqual(3);
    // Replacing a part is not one more; after a delete there is room again.
    await ok(upload(h, 's1', 'p2', part));
    await ok(h.call('POST', '/v3/bulk_import/delete_part/s1/p3'));
    await ok(upload(h, 's1', 'p4', part));
    expect(await names()).toEqual(['p1', 'p2', 'p4']);
  });

  it('reads the cap from the environment, 1,000 when unset, and refuses a malformed one at start', () => {
    expect(loadConfig({}).bulkImportMaxParts).toBeUndefined();
    expect(bulkImportOptions(h.deps).maxParts).toBe(DEFAULT_MAX_PARTS);
    expect(DEFAULT_MAX_PARTS).toBe(1000);
    expect(loadConfig({ SVC_BULK_IMPORT_MAX_PARTS: '20' }).bulkImportMaxParts).toBe(20);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ SVC_BULK_IMPORT_MAX_PARTS: bad })).toThrow(/SVC_BULK_IMPORT_MAX_PARTS/);
    }
  });
});
