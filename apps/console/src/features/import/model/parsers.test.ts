import { describe, expect, it } from 'vitest';
import { jsonArrayHead } from './analyze';
import { columnNameFor, columnNameProblem } from './columnName';
import { planProblems, rowConverter } from './convert';
import {
  delimitedColumns,
  delimiterProblem,
  detectTableStart,
  forEachDelimitedRow,
  parseDelimitedSample,
} from './delimited';
import { decodeText, detectHeader, detectKind, looksUtf16le } from './detect';
import { forEachJsonLine, keysOf, parseJsonArray } from './json';
import type { ColumnPlan } from './types';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('detectKind', () => {
  it('goes by extension, then by content', () => {
    expect(detectKind('a.csv', bytes('a,b'))).toBe('csv');
    expect(detectKind('a.TSV', bytes('a\tb'))).toBe('tsv');
    expect(detectKind('a.jsonl', bytes('{}'))).toBe('jsonl');
    expect(detectKind('part-1.msgpack.gz', new Uint8Array([0x1f, 0x8b]))).toBe('msgpack');
    expect(detectKind('upload.bin', new Uint8Array([0x1f, 0x8b, 8]))).toBe('msgpack');
    expect(detectKind('data.json', bytes('[{"a":1}]'))).toBe('json');
    expect(detectKind('data.json', bytes('{"a":1}\n{"a":2}\n'))).toBe('jsonl');
    expect(detectKind('data.txt', bytes('a\tb\n1\t2'))).toBe('tsv');
    expect(detectKind('data.txt', bytes('a;b\n1;2'))).toBe('csv');
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 byte order mark and reports it', () => {
    const d = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('a,b')]), 'utf-8');
    expect(d).toEqual({ text: 'a,b', bom: true, invalid: 0, firstInvalidLine: null });
  });

  it('counts invalid UTF-8 and where it starts, and reads the same bytes as windows-1252', () => {
    const latin = new Uint8Array([...bytes('name\ncaf'), 0xe9, ...bytes('\nna'), 0xef, 0x76, 0x65]);
    const d = decodeText(latin, 'utf-8');
    expect(d.invalid).toBe(2);
    expect(d.firstInvalidLine).toBe(2);
    expect(decodeText(latin, 'windows-1252')).toMatchObject({ text: 'name\ncafé\nnaïve', invalid: 0 });
  });

  it('reads UTF-16 LE and recognises it', () => {
    const utf16 = new Uint8Array([0xff, 0xfe, 0x61, 0, 0x2c, 0, 0x62, 0, 0x0a, 0, 0x31, 0, 0x2c, 0, 0x32, 0]);
    expect(looksUtf16le(utf16)).toBe(true);
    expect(looksUtf16le(bytes('a,b\n1,2\n3,4'))).toBe(false);
    expect(decodeText(utf16, 'utf-16le')).toMatchObject({ text: 'a,b\n1,2', bom: true });
  });
});

describe('delimited text', () => {
  it('detects the delimiter and parses quoted fields', () => {
    expect(parseDelimitedSample('a;b\n1;"x;y"\n', '').delimiter).toBe(';');
    expect(parseDelimitedSample('a\tb\n1\t2\n', '').delimiter).toBe('\t');
    const s = parseDelimitedSample('a,b\n1,"he said ""hi"", then left"\n3\n', '');
    expect(s.rows[1]).toEqual(['1', 'he said "hi", then left']);
    expect(s.ragged).toEqual([3]);
  });

  it('tells a header row from data', () => {
    expect(
      detectHeader([
        ['id', 'name'],
        ['1', 'ann'],
      ]),
    ).toBe(true);
    expect(
      detectHeader([
        ['1', 'ann'],
        ['2', 'bob'],
      ]),
    ).toBe(false);
    expect(
      detectHeader([
        ['ann', 'paris'],
        ['bob', 'ann'],
      ]),
    ).toBe(true);
    expect(
      detectHeader([
        ['x', 'x'],
        ['1', '2'],
      ]),
    ).toBe(false);
    expect(
      detectHeader([
        ['a', ''],
        ['1', '2'],
      ]),
    ).toBe(false);
  });

  it('names columns from the header, uniquely, or by position', () => {
    expect(delimitedColumns(['a', 'a', ''], true, 3)).toEqual(['a', 'a_2', 'column_3']);
    expect(delimitedColumns(['1', '2'], false, 2)).toEqual(['column_1', 'column_2']);
  });

  it('streams every data row keyed by column', () => {
    const rows: unknown[] = [];
    const r = forEachDelimitedRow('a,b\n1,2\n\n3\n', ',', true, (row) => rows.push(row));
    expect(r).toEqual({ columns: ['a', 'b'], rows: 2 });
    expect(rows).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '' },
    ]);
  });
});

describe('JSON', () => {
  it('reads an array of objects and reports other items', () => {
    const r = parseJsonArray('[{"a":1},2,{"b":"x"}]');
    expect(r.rows).toEqual([{ a: 1 }, { b: 'x' }]);
    expect(r.problems).toEqual([{ row: 2, reason: 'This item is not an object of column names to values.' }]);
    expect(keysOf(r.rows)).toEqual(['a', 'b']);
    expect(() => parseJsonArray('{"a":1}')).toThrow(/array of objects/);
    expect(() => parseJsonArray('[{"a":')).toThrow(/not valid JSON/);
  });

  it('previews the first objects of a large array from its first bytes', () => {
    const head = '[{"a":1,"n":{"x":1}},{"a":2,"n":{"x":2}},{"a":3,"n":{"x"';
    expect(jsonArrayHead(head)).toEqual([
      { a: 1, n: { x: 1 } },
      { a: 2, n: { x: 2 } },
    ]);
    expect(() => jsonArrayHead('{"a":1},{"b"')).toThrow(/array of objects/);
  });

  it('reads JSON Lines, skipping blank lines and reporting bad ones', () => {
    const rows: unknown[] = [];
    const problems: number[] = [];
    const n = forEachJsonLine(
      '{"a":1}\n\n{bad\n[1]\r\n{"a":2}',
      (r) => rows.push(r),
      (p) => problems.push(p.row),
    );
    expect(n).toBe(4);
    expect(rows).toEqual([{ a: 1 }, { a: 2 }]);
    expect(problems).toEqual([2, 3]);
  });
});

describe('column names and row conversion', () => {
  it('maps names the way the server does and checks them', () => {
    expect(columnNameFor('User ID')).toBe('user_id');
    expect(columnNameFor('1st')).toBe('_1st');
    expect(columnNameProblem('ok_name')).toBeNull();
    expect(columnNameProblem('Bad')).toMatch(/lowercase/);
    expect(columnNameProblem('rowid')).toMatch(/reserved/);
  });

  const columns: ColumnPlan[] = [
    { source: 'ts', name: 'ts', type: 'string', skip: false },
    { source: 'User', name: 'user', type: 'string', skip: false },
    { source: 'n', name: 'amount', type: 'long', skip: false },
    { source: 'junk', name: 'junk', type: 'string', skip: true },
  ];

  it('builds records with the converted time, renamed and typed columns', () => {
    const convert = rowConverter(
      columns,
      { mode: 'column', column: 'ts', form: 'iso8601', format: '', timeZone: 'UTC' },
      5,
    );
    expect(convert({ ts: '2024-01-01T00:00:00Z', User: 'ann', n: '3', junk: 'x' })).toEqual({
      ok: true,
      record: { time: 1704067200, user: 'ann', amount: 3 },
      nulled: 0,
    });
    expect(convert({ ts: 'yesterday', User: 'bob', n: '1' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^time \(ts\)/),
      skipped: false,
    });
    expect(convert({ ts: '2024-01-01', User: 'bob', n: 'x' })).toEqual({
      ok: false,
      reason: 'amount: "x" is not a whole number',
      skipped: true,
    });
  });

  it('sets a cell that will not convert to null when the column says so, and counts it', () => {
    const nulling = columns.map((c) => (c.source === 'n' ? { ...c, onInvalid: 'null' as const } : c));
    const convert = rowConverter(nulling, { mode: 'import' }, 5);
    expect(convert({ ts: 't', User: 'bob', n: 'N/A' })).toEqual({
      ok: true,
      record: { time: 5, ts: 't', user: 'bob', amount: null },
      nulled: 1,
    });
  });

  it('uses the import time when asked', () => {
    const convert = rowConverter(columns, { mode: 'import' }, 1700000000);
    expect(convert({ ts: 'whatever', User: 'ann', n: '' })).toEqual({
      ok: true,
      record: { time: 1700000000, ts: 'whatever', user: 'ann', amount: null },
      nulled: 0,
    });
  });

  it('finds duplicate and invalid names', () => {
    const twice: ColumnPlan[] = [
      { source: 'a', name: 'x', type: 'string', skip: false },
      { source: 'b', name: 'x', type: 'string', skip: false },
      { source: 'c', name: 'Bad', type: 'string', skip: false },
    ];
    const problems = planProblems(twice, { mode: 'import' }, columnNameProblem);
    expect(problems).toHaveLength(2);
  });
});

describe('custom delimiters and where the table starts', () => {
  it('accepts any single character but a quote or a line break', () => {
    expect(delimiterProblem('#')).toBeNull();
    expect(delimiterProblem('~')).toBeNull();
    expect(delimiterProblem('§')).toBeNull();
    expect(delimiterProblem('')).toMatch(/one character/);
    expect(delimiterProblem('::')).toMatch(/one character/);
    expect(delimiterProblem('"')).toMatch(/quote/);
    expect(delimiterProblem('\n')).toMatch(/line break/);
  });

  it('finds the first row as wide as the table below titles and notes', () => {
    const rows = [['Report'], ['made by', 'ops'], ['id', 'name', 'n'], ['1', 'a', '2'], ['2', 'b', '3']];
    expect(detectTableStart(rows, detectHeader)).toEqual({ skip: 2, header: true });
    expect(
      detectTableStart(
        [
          ['1', 'a'],
          ['2', 'b'],
        ],
        detectHeader,
      ),
    ).toEqual({ skip: 0, header: false });
    expect(detectTableStart([], detectHeader)).toEqual({ skip: 0, header: false });
  });
});
