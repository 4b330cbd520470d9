import { decodeBatch, defaultPartLimits, encodePart, RecordScanner } from '@svc/bulk-format';
import { describe, expect, it } from 'vitest';
import { FILE_LIMITS } from '../model/sizeLimits';
import type { ColumnPlan, ReadSettings } from '../model/types';
import { type PreparedPart, type PrepareEvent, type PrepareRequest, prepareParts } from './prepare';
import { csvWithBadNumbers } from './testFiles';

const csv: ReadSettings = { kind: 'csv', encoding: 'utf-8', delimiter: ',', header: true };
const plan = (...cols: [string, ColumnPlan['type']][]): ColumnPlan[] =>
  cols.map(([source, type]) => ({ source, name: source, type, skip: false }));

async function run(overrides: Partial<PrepareRequest>) {
  const events: PrepareEvent[] = [];
  const summary = await prepareParts(
    {
      files: [],
      columns: [],
      time: { mode: 'import' },
      importTime: 1700000000,
      partRows: 1000,
      partBytes: 1 << 24,
      keepRejected: 10,
      ...overrides,
    },
    (e) => events.push(e),
  );
  const parts = events.flatMap((e) => (e.type === 'part' ? [e.part] : [])).sort((a, b) => a.index - b.index);
  return { summary, parts, events };
}

async function decode(part: PreparedPart) {
  const raw = new Uint8Array(
    await new Response(
      new Blob([part.bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip')),
    ).arrayBuffer(),
  );
  const scanner = new RecordScanner(defaultPartLimits);
  const records = decodeBatch(scanner.push(raw));
  scanner.end();
  return records;
}

describe('prepareParts', () => {
  it('converts a CSV with an ISO time column, rejects the bad row and splits parts by row count', async () => {
    const text =
      'ts,user,amount\n2024-01-01T00:00:00Z,ann,1\nnot a time,bob,2\n2024-01-01T00:00:02Z,cid,3.5\n2024-01-01T00:00:03Z,dee,4\n';
    const { summary, parts } = await run({
      files: [{ file: new File([text], 'a.csv'), settings: csv }],
      columns: plan(['ts', 'string'], ['user', 'string'], ['amount', 'double']),
      time: { mode: 'column', column: 'ts', form: 'iso8601', format: '', timeZone: 'UTC' },
      partRows: 2,
    });
    expect(summary).toMatchObject({ rows: 4, accepted: 3, rejected: 1, parts: 2 });
    expect(summary.kept[0]).toMatchObject({ row: 2, file: 'a.csv', values: { ts: 'not a time', user: 'bob' } });
    expect(summary.kept[0]?.reason).toMatch(/^time \(ts\): "not a time" is not an ISO 8601 date/);
    expect(parts.map((p) => [p.name, p.rows])).toEqual([
      ['part-00001', 2],
      ['part-00002', 1],
    ]);
    expect([...(await decode(parts[0] as PreparedPart)), ...(await decode(parts[1] as PreparedPart))]).toEqual([
      { time: 1704067200, user: 'ann', amount: 1 },
      { time: 1704067202, user: 'cid', amount: 3.5 },
      { time: 1704067203, user: 'dee', amount: 4 },
    ]);
  });

  it('reads JSON Lines with the import time, and counts bad lines as rejected', async () => {
    const text = '{"user":"ann","n":1}\n{oops\n{"user":"bob","n":2}\n';
    const { summary, parts } = await run({
      files: [{ file: new File([text], 'b.jsonl'), settings: { ...csv, kind: 'jsonl' } }],
      columns: plan(['user', 'string'], ['n', 'long']),
    });
    expect(summary).toMatchObject({ rows: 3, accepted: 2, rejected: 1 });
    expect(await decode(parts[0] as PreparedPart)).toEqual([
      { time: 1700000000, user: 'ann', n: 1 },
      { time: 1700000000, user: 'bob', n: 2 },
    ]);
  });

  it('passes a ready-made msgpack.gz part through unchanged and counts its records', async () => {
    const bytes = await encodePart([
      { time: 1, a: 1 },
      { time: 2, a: 2 },
    ]);
    const { summary, parts } = await run({
      files: [
        {
          file: new File([bytes as Uint8Array<ArrayBuffer>], 'ready.msgpack.gz'),
          settings: { ...csv, kind: 'msgpack' },
        },
      ],
    });
    expect(summary).toMatchObject({ rows: 2, accepted: 2, parts: 1 });
    expect(parts[0]?.name).toBe('part-00001-ready.msgpack.gz');
    expect(parts[0]?.bytes).toEqual(bytes);
  });

  it('reads a JSON array file', async () => {
    const { summary, parts } = await run({
      files: [
        {
          file: new File(['[{"t":1700000000,"x":"a"},{"t":"later","x":"b"}]'], 'c.json'),
          settings: { ...csv, kind: 'json' },
        },
      ],
      columns: plan(['t', 'long'], ['x', 'string']),
      time: { mode: 'column', column: 't', form: 'unix_s', format: '', timeZone: 'UTC' },
    });
    expect(summary).toMatchObject({ rows: 2, accepted: 1, rejected: 1 });
    expect(await decode(parts[0] as PreparedPart)).toEqual([{ time: 1700000000, x: 'a' }]);
  });
});

describe('header rows and file size', () => {
  it('skips the rows above the header the user chose', async () => {
    const file = new File(['Sales export\nnote,,\nid,name,t\n1,ann,1700000000\n2,bob,1700000001\n'], 'r.csv');
    const { summary, parts } = await run({
      files: [{ file, settings: { ...csv, skipRows: 2 } }],
      columns: plan(['id', 'long'], ['name', 'string']),
    });
    expect(summary).toMatchObject({ rows: 2, accepted: 2, rejected: 0 });
    expect(await decode(parts[0] as PreparedPart)).toEqual([
      { time: 1700000000, id: 1, name: 'ann' },
      { time: 1700000000, id: 2, name: 'bob' },
    ]);
  });

  it('refuses a text file above the documented limit before reading it', async () => {
    const file = new File(['a\n1\n'], 'huge.csv');
    Object.defineProperty(file, 'size', { value: FILE_LIMITS.maxTextBytes + 1 });
    await expect(run({ files: [{ file, settings: csv }], columns: plan(['a', 'long']) })).rejects.toThrow(
      /huge\.csv is 512 MB; the browser imports text files of up to 512 MB/,
    );
  });
});

describe('the fix for cells that will not convert', () => {
  const file = () => new File([csvWithBadNumbers(1000)], 'amounts.csv');
  const columns = (amount: ColumnPlan) => [
    { source: 'id', name: 'id', type: 'long' as const, skip: false },
    amount,
    { source: 'code', name: 'code', type: 'string' as const, skip: true },
  ];

  it('skips the rows: counted as skipped, kept with the reason', async () => {
    const { summary, parts } = await run({
      files: [{ file: file(), settings: csv }],
      columns: columns({ source: 'amount', name: 'amount', type: 'long', skip: false, onInvalid: 'skip' }),
    });
    expect(summary).toMatchObject({ rows: 1000, accepted: 990, rejected: 0, skipped: 10, nulled: 0 });
    expect(summary.kept[0]).toMatchObject({ row: 100, reason: 'amount: "N/A" is not a whole number' });
    const records = await decode(parts[0] as PreparedPart);
    expect(records).toHaveLength(990);
    expect(records.some((r) => (r as { id: number }).id === 100)).toBe(false);
  });

  it('sets the cells to null and imports every row', async () => {
    const { summary, parts } = await run({
      files: [{ file: file(), settings: csv }],
      columns: columns({ source: 'amount', name: 'amount', type: 'long', skip: false, onInvalid: 'null' }),
    });
    expect(summary).toMatchObject({ rows: 1000, accepted: 1000, rejected: 0, skipped: 0, nulled: 10 });
    const records = await decode(parts[0] as PreparedPart);
    expect(records[99]).toEqual({ time: 1700000000, id: 100, amount: null });
    expect(records[98]).toEqual({ time: 1700000000, id: 99, amount: 297 });
  });

  it('with the type changed to string, keeps every cell as it is written', async () => {
    const { summary, parts } = await run({
      files: [{ file: file(), settings: csv }],
      columns: columns({ source: 'amount', name: 'amount', type: 'string', skip: false }),
    });
    expect(summary).toMatchObject({ accepted: 1000, skipped: 0, nulled: 0 });
    expect((await decode(parts[0] as PreparedPart))[99]).toEqual({ time: 1700000000, id: 100, amount: 'N/A' });
  });
});
