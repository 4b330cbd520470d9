import { encodePart } from '@svc/bulk-format';
import { describe, expect, it } from 'vitest';
import { analyzeFile } from './analyze';

describe('analyzeFile', () => {
  it('detects a CSV with a BOM, a semicolon delimiter and a header row', async () => {
    const file = new File(['\uFEFFid;name\n1;ann\n2;bob\n'], 'people.csv');
    const a = await analyzeFile(file);
    expect(a.settings).toEqual({ kind: 'csv', encoding: 'utf-8', delimiter: ';', header: true, skipRows: 0 });
    expect(a.bom).toBe(true);
    expect(a.columns).toEqual(['id', 'name']);
    expect(a.sample).toEqual([
      { id: '1', name: 'ann' },
      { id: '2', name: 'bob' },
    ]);
  });

  it('reports invalid UTF-8, and reads the file again with the encoding the user picks', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('city\nM'),
      0xfc,
      ...new TextEncoder().encode('nchen\n'),
    ]);
    const file = new File([bytes], 'cities.csv');
    expect(await analyzeFile(file)).toMatchObject({ invalid: 1, firstInvalidLine: 2 });
    const fixed = await analyzeFile(file, { encoding: 'windows-1252' });
    expect(fixed.invalid).toBe(0);
    expect(fixed.sample).toEqual([{ city: 'München' }]);
  });

  it('obeys overrides of the header row and the delimiter', async () => {
    const file = new File(['a,b\n1,2\n'], 'x.csv');
    const a = await analyzeFile(file, { header: false, delimiter: ',' });
    expect(a.columns).toEqual(['column_1', 'column_2']);
    expect(a.sample).toHaveLength(2);
  });

  it('finds the header below a title and notes, and obeys a header row the user picks', async () => {
    const text = 'Sales export\nGenerated 2024-05-01 by ops\nid,name,amount\n1,ann,10\n2,bob,20\n3,cid,30\n';
    const a = await analyzeFile(new File([text], 'report.csv'));
    expect(a.settings).toMatchObject({ delimiter: ',', header: true, skipRows: 2 });
    expect(a.columns).toEqual(['id', 'name', 'amount']);
    expect(a.sample[0]).toEqual({ id: '1', name: 'ann', amount: '10' });
    expect(a.ragged).toEqual([]);
    // The user says the table starts at row 4, without a header.
    const b = await analyzeFile(new File([text], 'report.csv'), { header: false, skipRows: 3 });
    expect(b.columns).toEqual(['column_1', 'column_2', 'column_3']);
    expect(b.sample).toHaveLength(3);
  });

  it('reads a file with a custom one-character delimiter', async () => {
    const a = await analyzeFile(new File(['id#name\n1#ann\n2#bob\n'], 'x.txt'), { delimiter: '#' });
    expect(a.columns).toEqual(['id', 'name']);
    expect(a.sample[1]).toEqual({ id: '2', name: 'bob' });
  });

  it('detects UTF-16 BE, with or without a byte order mark', async () => {
    const be = (text: string, bom: boolean) => {
      const out = bom ? [0xfe, 0xff] : [];
      for (const ch of text) out.push(0, ch.charCodeAt(0));
      return new Uint8Array(out);
    };
    for (const bom of [true, false]) {
      const a = await analyzeFile(new File([be('city,n\nOslo,1\nRome,2\n', bom)], 'c.csv'));
      expect(a.settings.encoding).toBe('utf-16be');
      expect(a.bom).toBe(bom);
      expect(a.sample).toEqual([
        { city: 'Oslo', n: '1' },
        { city: 'Rome', n: '2' },
      ]);
    }
  });

  it('previews a large one-line JSON array from its start', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `name_${i}`, tags: { a: i } }));
    const a = await analyzeFile(new File([JSON.stringify(rows)], 'big.json'));
    expect(a.error).toBeNull();
    expect(a.settings.kind).toBe('json');
    expect(a.columns).toEqual(['id', 'name', 'tags']);
    expect(a.sample[1]).toEqual({ id: 1, name: 'name_1', tags: { a: 1 } });
  });

  it('reads the first records of a ready-made part', async () => {
    const part = await encodePart([
      { time: 1, sku: 'a' },
      { time: 2, sku: 'b', qty: 3 },
    ]);
    const a = await analyzeFile(new File([part as Uint8Array<ArrayBuffer>], 'p.msgpack.gz'));
    expect(a.settings.kind).toBe('msgpack');
    expect(a.columns).toEqual(['time', 'sku', 'qty']);
    expect(a.sample).toHaveLength(2);
  });

  it('says why a JSON file cannot be read', async () => {
    const a = await analyzeFile(new File(['{"a": 1}'], 'one.json'), { kind: 'json' });
    expect(a.error).toMatch(/array of objects/);
  });
});
