import { describe, expect, it } from 'vitest';
import type { ReadSettings, SourceRow } from '../model/types';
import { readRows } from './readRows';

const csv: ReadSettings = { kind: 'csv', encoding: 'utf-8', delimiter: ',', header: true };

async function read(text: string | Uint8Array, settings: ReadSettings, chunkBytes?: number) {
  const rows: [number, SourceRow][] = [];
  const problems: [number, string][] = [];
  const chunks: number[] = [];
  const file = new File([text as BlobPart], 'f');
  await readRows(
    file,
    settings,
    {
      row: (row, n) => rows.push([n, row]),
      problem: (n, reason) => problems.push([n, reason]),
      chunk: (done) => {
        chunks.push(done);
      },
    },
    chunkBytes,
  );
  return { rows, problems, chunks };
}

describe('readRows: streamed in chunks', () => {
  it('names a row with too few fields by its counts, rather than reading it with empty cells', async () => {
    const text = 'id,email,time,country,plan\n1,a@x,1700000000,JP,gold\n2,b@x\n3,c@x,1700000000,US,free\n';
    const { rows, problems } = await read(text, csv, 5);
    expect(rows.map(([n]) => n)).toEqual([1, 3]);
    expect(problems).toEqual([[2, 'row 2 has 2 fields, the header has 5']]);
    const bare = await read('1,a,b\n2\n', { ...csv, header: false });
    expect(bare.problems).toEqual([[2, 'row 2 has 1 field, the first row has 3']]);
  });

  it('reads CSV whose quoted line breaks and multi-byte characters straddle chunk boundaries', async () => {
    const text = 'id,note\n1,"two\nlines, and ""quotes"""\n2,Zürich 東京\n\n3,"a\r\nb"\n';
    const whole = await read(text, csv);
    for (const size of [1, 2, 3, 5, 7, 11]) {
      const chunked = await read(text, csv, size);
      expect(chunked.rows).toEqual(whole.rows);
      expect(chunked.chunks.at(-1)).toBe(new TextEncoder().encode(text).length);
    }
    expect(whole.rows).toEqual([
      [1, { id: '1', note: 'two\nlines, and "quotes"' }],
      [2, { id: '2', note: 'Zürich 東京' }],
      [3, { id: '3', note: 'a\r\nb' }],
    ]);
  });

  it('never reads more than a chunk of the file at a time', async () => {
    const slices: number[] = [];
    let whole = 0;
    class WatchedFile extends File {
      override slice(start?: number, end?: number) {
        slices.push((end ?? this.size) - (start ?? 0));
        return super.slice(start, end);
      }
      override arrayBuffer() {
        whole += 1;
        return super.arrayBuffer();
      }
    }
    const lines = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({ n: i + 1, late: i === 4999 ? 'x' : undefined }),
    );
    const file = new WatchedFile([lines.join('\n')], 'big.jsonl');
    let rows = 0;
    await readRows(file, { ...csv, kind: 'jsonl' }, { row: () => rows++, problem: () => {}, chunk: () => {} }, 4096);
    expect(rows).toBe(5000);
    expect(whole).toBe(0);
    expect(slices.length).toBe(Math.ceil(file.size / 4096));
    expect(Math.max(...slices)).toBe(4096);
  });

  it('reads a stray quote inside an unquoted field as text, whatever the chunks', async () => {
    const text = 'size,name\n5" screen,tv\n7,radio\n';
    for (const size of [2, 5, 64]) {
      expect((await read(text, csv, size)).rows).toEqual([
        [1, { size: '5" screen', name: 'tv' }],
        [2, { size: '7', name: 'radio' }],
      ]);
    }
  });

  it('names the cells of rows wider than the header instead of dropping them', async () => {
    const { rows } = await read('a,b\n1,2\n3,4,5\n', csv, 4);
    expect(rows).toEqual([
      [1, { a: '1', b: '2' }],
      [2, { a: '3', b: '4', column_3: '5' }],
    ]);
  });

  it('reads JSON Lines across chunks, numbering lines and reporting the bad ones', async () => {
    const text = '{"a":1}\n\n{oops\n{"a":"é","b":[1]}\n[1]\n{"c":null}';
    const { rows, problems } = await read(text, { ...csv, kind: 'jsonl' }, 3);
    expect(rows).toEqual([
      [1, { a: 1 }],
      [3, { a: 'é', b: [1] }],
      [5, { c: null }],
    ]);
    expect(problems.map(([n, r]) => [n, r.split(':')[0]])).toEqual([
      [2, 'Not valid JSON'],
      [4, 'This line is not a JSON object.'],
    ]);
  });

  it('decodes Windows-1252 and UTF-16 in chunks of odd sizes', async () => {
    const latin = new Uint8Array([...new TextEncoder().encode('name\n'), 0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68, 0x0a]);
    expect((await read(latin, { ...csv, encoding: 'windows-1252' }, 3)).rows).toEqual([[1, { name: 'Zürich' }]]);
    const text = '\uFEFFname\nZürich\n';
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) utf16[i * 2] = text.charCodeAt(i) & 0xff;
    for (let i = 0; i < text.length; i++) utf16[i * 2 + 1] = text.charCodeAt(i) >> 8;
    expect((await read(utf16, { ...csv, encoding: 'utf-16le' }, 3)).rows).toEqual([[1, { name: 'Zürich' }]]);
  });
});
