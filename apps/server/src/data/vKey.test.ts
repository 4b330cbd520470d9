import { encodePart } from '@svc/bulk-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

/**
 * A record key `v` never becomes a column: td-client-ruby adds its own `v` entry to every table's schema,
 * so a real `v` column breaks `td table:list` for the whole account. Its values are kept under `_v`.
 */
describe('a record key named v', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
  });
  afterEach(() => h.close());

  const schemas = async () => {
    const body = (await (await h.call('GET', '/v3/table/list/web_events')).json()) as {
      tables: { name: string; schema: string }[];
    };
    return Object.fromEntries(body.tables.map((t) => [t.name, JSON.parse(t.schema) as string[][]]));
  };
  const tail = async (table: string) =>
    (await (await h.call('GET', `/v3/table/tail/web_events/${table}?format=json`)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));

  it('is stored under _v by postback, the records API and bulk import', async () => {
    const postback = await h.call('POST', '/postback/v3/event/web_events/pbk', {
      key: null,
      json: { v: 'one', a: 1 },
      headers: { 'x-svc-write-key': h.admin.writeOnlyKey },
    });
    expect(postback.status, await postback.clone().text()).toBe(200);

    const records = await h.call('POST', '/web_events/rec', {
      key: null,
      body: JSON.stringify({ events: [{ V: 'two', time: 1_700_000_000 }] }),
      headers: { authorization: `TD1 ${h.admin.writeOnlyKey}`, 'content-type': 'application/vnd.treasuredata.v1+json' },
    });
    expect(records.status, await records.clone().text()).toBe(200);

    await h.call('POST', '/v3/table/create/web_events/bulk/log');
    await h.call('POST', '/v3/bulk_import/create/s1/web_events/bulk');
    const part = await encodePart([{ time: 1_700_000_000, v: 3 }]);
    expect((await h.call('PUT', '/v3/bulk_import/upload_part/s1/p1', { body: part })).status).toBe(200);
    await h.call('POST', '/v3/bulk_import/freeze/s1');
    const jobId = ((await (await h.call('POST', '/v3/bulk_import/perform/s1')).json()) as { job_id: number }).job_id;
    expect(await h.app.services.jobs.whenSettled(jobId)).toBe('success');
    expect((await h.call('POST', '/v3/bulk_import/commit/s1')).status).toBe(200);

    expect(await schemas()).toEqual({
      pbk: [
        ['_v', 'string'],
        ['a', 'long'],
      ],
      rec: [['_v', 'string']],
      bulk: [['_v', 'long']],
    });
    expect((await tail('rec'))[0]).toEqual({ time: 1_700_000_000, _v: 'two' });
    expect((await tail('bulk'))[0]).toEqual({ time: 1_700_000_000, _v: 3 });
  });

  it('refuses v as a column of a schema a client sets', async () => {
    await h.call('POST', '/v3/table/create/web_events/users/log');
    for (const schema of ['[["v","string"]]', '[["name","string","v"]]']) {
      const res = await h.call('POST', '/v3/table/update-schema/web_events/users', { form: { schema } });
      expect(res.status, schema).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('"v"');
    }
  });
});
