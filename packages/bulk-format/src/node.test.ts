import { createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBatch } from './decode';
import { encodePart, encodeRecords } from './encode';
import { BulkFormatError } from './errors';
import { defaultPartLimits } from './limits';
import { readGzipPart } from './node';

async function* chunksOf(bytes: Uint8Array, size = 1000) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function readAll(bytes: Uint8Array, limits = defaultPartLimits) {
  const records: unknown[] = [];
  const summary = await readGzipPart(chunksOf(bytes), { limits, onBatch: (b) => void records.push(...decodeBatch(b)) });
  return { records, summary };
}

async function refusal(p: Promise<unknown>): Promise<BulkFormatError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof BulkFormatError)) throw new Error(`expected a BulkFormatError, got ${String(e)}`);
  return e;
}

describe('readGzipPart', () => {
  it('reads the parts encodePart writes, as the Python and Ruby clients write them', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ time: 1700000000 + i, user: `u${i}`, n: i * 0.5 }));
    const part = await encodePart(rows);
    const { records, summary } = await readAll(part);
    expect(records).toEqual(rows);
    expect(summary.records).toBe(5000);
    expect(summary.compressedBytes).toBe(part.length);
    expect(summary.decompressedBytes).toBe(encodeRecords(rows).length);
  });

  it('reads concatenated gzip members as one part', async () => {
    const part = Buffer.concat([await encodePart([{ a: 1 }]), await encodePart([{ a: 2 }])]);
    expect((await readAll(part)).records).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('hands every compressed byte to onCompressed', async () => {
    const part = await encodePart([{ a: 1 }, { b: 2 }]);
    const seen: Uint8Array[] = [];
    await readGzipPart(chunksOf(part, 7), { limits: defaultPartLimits, onCompressed: (c) => void seen.push(c) });
    expect(Buffer.concat(seen)).toEqual(Buffer.from(part));
  });

  it('stops a gzip bomb at the decompressed limit', async () => {
    // 64 MiB of zeros inside one string value compresses to about 64 KiB.
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    const head = Buffer.from([0x81, 0xa1, 0x61, 0xdb, 0x04, 0x00, 0x00, 0x00]);
    const gz = createGzip();
    const compressed: Buffer[] = [];
    gz.on('data', (c: Buffer) => compressed.push(c));
    const done = new Promise((r) => gz.on('end', r));
    gz.end(Buffer.concat([head, zeros]));
    await done;
    const bomb = Buffer.concat(compressed);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const limits = { ...defaultPartLimits, maxStringBytes: 128 * 1024 * 1024, maxDecompressedBytes: 4 * 1024 * 1024 };
    const e = await refusal(readAll(bomb, limits));
    expect(e.code).toBe('too_large');
    expect(e.message).toMatch(/expands to more than the limit of 4 MiB when decompressed/);
  });

  it('refuses a part larger than the compressed limit', async () => {
    const part = await encodePart(Array.from({ length: 200 }, (_, i) => ({ i, s: `${Math.random()}` })));
    const e = await refusal(readAll(part, { ...defaultPartLimits, maxCompressedBytes: 500 }));
    expect(e.code).toBe('too_large');
    expect(e.message).toMatch(/larger than the limit of 500 bytes compressed/);
  });

  it('refuses bytes that are not gzip, a truncated gzip and an empty part', async () => {
    expect((await refusal(readAll(encodeRecords([{ a: 1 }])))).message).toMatch(/not a valid gzip file/);
    const part = await encodePart([{ a: 'x'.repeat(1000) }]);
    expect((await refusal(readAll(part.subarray(0, part.length - 10)))).message).toMatch(/not a valid gzip file/);
    expect((await refusal(readAll(new Uint8Array(0)))).message).toBe('The part is empty: send a gzip file.');
  });

  it('refuses a gzip of something that is not msgpack maps', async () => {
    const e = await refusal(readAll(gzipSync('{"time": 1}\n')));
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(/^Record 1: each record must be a msgpack map/);
  });
});
