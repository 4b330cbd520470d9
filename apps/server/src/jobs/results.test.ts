import { gunzipSync } from 'node:zlib';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { errorOf, run, show, tableWithRows } from './testing/jobs';

const ROWS = [
  { time: 1700000000, name: 'plain', score: 1.5, ok: true, tags: ['a', 'b'] },
  { time: 1700000001, name: 'comma, "quoted"\nline', score: 2.25, ok: false, tags: [] },
  { time: 1700000002, name: 'tab\there \\ slash', score: null, ok: null, tags: null },
];
const QUERY = 'SELECT time, name, score, ok, tags FROM events ORDER BY time';
const EXPECTED = [
  [1700000000, 'plain', 1.5, true, ['a', 'b']],
  [1700000001, 'comma, "quoted"\nline', 2.25, false, []],
  [1700000002, 'tab\there \\ slash', null, null, null],
];

let h: Harness;
let id: string;
beforeAll(async () => {
  h = await createHarness();
  await tableWithRows(h, 'shop', 'events', ROWS);
  const job = await run(h, 'shop', QUERY);
  expect(job.status).toBe('success');
  id = job.id;
});
afterAll(() => h.close());

const result = (query: string, headers: Record<string, string> = {}) =>
  h.call('GET', `/v3/job/result/${id}?${query}`, { headers });
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('GET /v3/job/result/:id formats', () => {
  it('msgpack: concatenated arrays, one per row, with table types kept (booleans, arrays)', async () => {
    const res = await result('format=msgpack');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-msgpack');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(unpackMultiple(await bytes(res))).toEqual(EXPECTED);
  });

  it('hive_result_schema types what date_trunc and from_unixtime return as timestamp, as Presto does', async () => {
    const job = await run(
      h,
      'shop',
      "SELECT date_trunc('day', from_unixtime(time)) AS day, from_unixtime(time) AS at, COUNT(*) AS n, name FROM events GROUP BY 1, 2, 4 ORDER BY 2 LIMIT 1",
    );
    expect(job.status).toBe('success');
    expect(JSON.parse((await show(h, job.id)).hive_result_schema as string)).toEqual([
      ['day', 'timestamp'],
      ['at', 'timestamp'],
      ['n', 'bigint'],
      ['name', 'varchar'],
    ]);
  });

  it('hive_result_schema gives presto types of the columns', async () => {
    expect(JSON.parse((await show(h, id)).hive_result_schema as string)).toEqual([
      ['time', 'bigint'],
      ['name', 'varchar'],
      ['score', 'double'],
      ['ok', 'boolean'],
      ['tags', 'array(varchar)'],
    ]);
  });

  it('msgpack.gz: the gzip of the msgpack body, raw, as long as result_size says', async () => {
    const plain = await bytes(await result('format=msgpack'));
    const res = await result('format=msgpack.gz');
    expect(res.headers.get('content-encoding')).toBeNull();
    const gz = await bytes(res);
    expect(gunzipSync(gz)).toEqual(plain);
    expect((await show(h, id)).result_size).toBe(gz.length);
  });

  it('json: one array per line, with the names first when header is true in any case', async () => {
    const body = await (await result('format=json')).text();
    expect(body.endsWith('\n')).toBe(true);
    expect(
      body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(EXPECTED);
    for (const header of ['true', 'True', 'TRUE']) {
      const lines = (await (await result(`format=json&header=${header}`)).text()).trimEnd().split('\n');
      expect(JSON.parse(lines[0] as string)).toEqual(['time', 'name', 'score', 'ok', 'tags']);
      expect(lines).toHaveLength(4);
    }
    const noHeader = await (await result('format=json&header=False')).text();
    expect(noHeader).toBe(body);
  });

  it('csv: quoted where needed, names first with header=true', async () => {
    const res = await result('format=csv&header=true');
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await res.text()).toBe(
      'time,name,score,ok,tags\r\n' +
        '1700000000,plain,1.5,true,"[""a"",""b""]"\r\n' +
        '1700000001,"comma, ""quoted""\nline",2.25,false,[]\r\n' +
        '1700000002,tab\there \\ slash,,,\r\n',
    );
  });

  it('tsv: tabs, newlines and backslashes escaped, one row per line', async () => {
    const body = await (await result('format=tsv')).text();
    expect(body).toBe(
      '1700000000\tplain\t1.5\ttrue\t["a","b"]\n' +
        '1700000001\tcomma, "quoted"\\nline\t2.25\tfalse\t[]\n' +
        '1700000002\ttab\\there \\\\ slash\t\t\t\n',
    );
  });

  it('refuses an unknown format with the list of formats', async () => {
    const res = await result('format=xml');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/json, csv, tsv, msgpack, msgpack\.gz/);
  });
});

describe('Range requests on msgpack.gz and msgpack', () => {
  it('answers a byte range with 206, Content-Range and an ETag, and the parts add up to the whole', async () => {
    const whole = await bytes(await result('format=msgpack.gz'));
    const first = await result('format=msgpack.gz', { range: 'bytes=0-9' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-9/${whole.length}`);
    expect(first.headers.get('content-length')).toBe('10');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const rest = await result('format=msgpack.gz', { range: 'bytes=10-', 'if-range': etag as string });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([await bytes(first), await bytes(rest)])).toEqual(whole);
    const tail = await result('format=msgpack.gz', { range: 'bytes=-5' });
    expect(await bytes(tail)).toEqual(whole.subarray(whole.length - 5));
  });

  it('sends the whole body when If-Range no longer matches, and 416 for a range past the end', async () => {
    const stale = await result('format=msgpack', { range: 'bytes=0-3', 'if-range': '"something-else"' });
    expect(stale.status).toBe(200);
    const size = (await bytes(await result('format=msgpack'))).length;
    const past = await result('format=msgpack', { range: `bytes=${size + 10}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await errorOf(past)).status_code).toBe(416);
  });
});

describe('results that are not there', () => {
  it('an empty result is an empty body, with only the names under header=true', async () => {
    const empty = await run(h, 'shop', 'SELECT name FROM events WHERE 1 = 0');
    expect(empty.status).toBe('success');
    expect((await bytes(await h.call('GET', `/v3/job/result/${empty.id}?format=msgpack`))).length).toBe(0);
    const json = await h.call('GET', `/v3/job/result/${empty.id}?format=json&header=true`);
    expect(await json.text()).toBe('["name"]\n');
  });

  it('a failed job answers 404 saying it has no result', async () => {
    const failed = await run(h, 'shop', 'SELECT no_such_function(1)');
    expect(failed.status).toBe('error');
    const res = await h.call('GET', `/v3/job/result/${failed.id}?format=json`);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toMatch(/ended with status error; it has no result/);
  });
});
