import { type SavedQuery, savedQueryAnswer, savedQueryList, savedQueryRunAnswer } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableWithRows } from '../jobs/testing/jobs';
import { consoleCall, signIn } from '../testing/consoleClient';
import { type CallOptions, createHarness, type Harness } from '../testing/harness';

/** /entities/saved-queries: kept on the server, shared in the account, edited by administrators and owners. */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [
    { time: 1_700_000_000, path: '/a' },
    { time: 1_700_000_060, path: '/b' },
  ]);
}, 30_000);
afterEach(async () => {
  await h.close();
});

const BASE = '/entities/saved-queries';
const QUERY = 'SELECT count(*) AS n FROM pageviews';
const VALID = { name: 'Page count', description: 'How many views', engine: 'presto', database: 'web', query: QUERY };

const message = async (res: Response) => ((await res.json()) as { message: string }).message;
async function ok(res: Promise<Response>): Promise<SavedQuery> {
  const r = await res;
  const body = (await r.json()) as unknown;
  expect(r.status, JSON.stringify(body)).toBe(200);
  return savedQueryAnswer.parse(body).savedQuery;
}
const create = (json: unknown, opts: CallOptions = {}) => h.call('POST', BASE, { json, ...opts });
const list = async (query = '', opts: CallOptions = {}) =>
  savedQueryList.parse(await (await h.call('GET', `${BASE}${query}`, opts)).json()).savedQueries;

/** A member of the first account (not an administrator) and their master key. */
async function member(name: string): Promise<string> {
  const form = { email: `${name}@first.test`, password: 'a long password 1' };
  expect((await h.call('POST', `/v3/user/add/${name}`, { form })).status).toBe(200);
  return ((await (await h.call('POST', `/v3/user/apikey/add/${name}@first.test`)).json()) as { apikey: string }).apikey;
}

describe('saving, reading, searching', () => {
  it('creates a saved query owned by the caller and lists and reads it', async () => {
    const saved = await ok(create(VALID));
    expect(saved).toMatchObject({
      name: 'Page count',
      description: 'How many views',
      engine: 'presto',
      database: 'web',
      query: QUERY,
      lastRun: null,
      editable: true,
    });
    expect(saved.owner?.name).toBeTruthy();
    expect((await list()).map((q) => q.id)).toEqual([saved.id]);
    expect(await ok(h.call('GET', `${BASE}/${saved.id}`))).toEqual(saved);
  });

  it('searches name, description, database and SQL in any case, with % and _ taken literally', async () => {
    await ok(create(VALID));
    await ok(create({ ...VALID, name: 'Paths', description: '', query: 'SELECT path FROM pageviews' }));
    await ok(create({ ...VALID, name: '100% of rows', description: 'all', query: 'SELECT * FROM pageviews' }));
    const names = async (q: string) => (await list(`?search=${encodeURIComponent(q)}`)).map((s) => s.name);
    expect(await names('PAGE')).toEqual(['100% of rows', 'Page count', 'Paths']);
    expect(await names('views')).toEqual(['100% of rows', 'Page count', 'Paths']);
    expect(await names('select path')).toEqual(['Paths']);
    expect(await names('how many')).toEqual(['Page count']);
    expect(await names('%')).toEqual(['100% of rows']);
    expect(await names('_')).toEqual([]);
    expect(await names('nothing like it')).toEqual([]);
  });

  it("never shows or touches another account's saved queries", async () => {
    const saved = await ok(create(VALID));
    const other = await h.newAccount('Other');
    const key = other.masterKey;
    expect(await list('', { key })).toEqual([]);
    expect((await h.call('GET', `${BASE}/${saved.id}`, { key })).status).toBe(404);
    expect((await h.call('PATCH', `${BASE}/${saved.id}`, { key, json: { name: 'x' } })).status).toBe(404);
    expect((await h.call('POST', `${BASE}/${saved.id}/run`, { key })).status).toBe(404);
    expect((await h.call('DELETE', `${BASE}/${saved.id}`, { key })).status).toBe(404);
    expect((await list()).map((q) => q.name)).toEqual(['Page count']);
  });

  it('answers the console session the same way as an API key', async () => {
    await ok(create(VALID));
    const cookie = await signIn(h);
    const res = await consoleCall(h, 'GET', BASE, { cookie });
    expect(res.status).toBe(200);
    expect(savedQueryList.parse(await res.json()).savedQueries.map((q) => q.name)).toEqual(['Page count']);
  });
});

describe('bad input', () => {
  const refused = async (json: unknown, status: number, field: string | null, pattern: RegExp) => {
    const res = await create(json);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { message: string; details?: { field?: string } };
    expect(body.message).toMatch(pattern);
    if (field) expect(body.details?.field).toBe(field);
  };

  it('refuses each invalid field with a message naming it, and keeps nothing', async () => {
    await refused({ ...VALID, name: '   ' }, 400, 'name', /name: it cannot be empty/);
    await refused({ ...VALID, name: undefined }, 400, 'name', /Give the saved query a name/);
    await refused({ ...VALID, name: 'x'.repeat(256) }, 400, 'name', /256 characters long; at most 255/);
    await refused({ ...VALID, description: 'd'.repeat(2001) }, 400, 'description', /at most 2000/);
    await refused({ ...VALID, query: 'q'.repeat(200_001) }, 400, 'query', /at most 200000/);
    await refused({ ...VALID, query: ' ' }, 400, 'query', /query is empty/);
    await refused({ ...VALID, engine: 'spark' }, 400, 'engine', /presto or hive, not "spark"/);
    await refused({ ...VALID, database: 'nope_db' }, 400, 'database', /no database named "nope_db"/);
    await refused({ ...VALID, query: 'DROP TABLE pageviews' }, 400, 'query', /^"query": /);
    await refused({ ...VALID, name: 42 }, 400, 'name', /"name" must be text/);
    expect(await list()).toEqual([]);
  });

  it('refuses a second query of the same name (409) and a rename onto one, changing nothing', async () => {
    const first = await ok(create(VALID));
    const second = await ok(create({ ...VALID, name: 'Other' }));
    const again = await create({ ...VALID, description: 'again' });
    expect(again.status).toBe(409);
    expect(await message(again)).toMatch(/"Page count" already exists/);
    const rename = await h.call('PATCH', `${BASE}/${second.id}`, { json: { name: 'Page count', query: 'SELECT 1' } });
    expect(rename.status).toBe(409);
    expect((await list()).map((q) => [q.id, q.name, q.query])).toEqual([
      [second.id, 'Other', QUERY],
      [first.id, 'Page count', QUERY],
    ]);
  });

  it('refuses an update to an unknown database without changing the query', async () => {
    const saved = await ok(create(VALID));
    const res = await h.call('PATCH', `${BASE}/${saved.id}`, { json: { database: 'gone_db', name: 'Renamed' } });
    expect(res.status).toBe(400);
    expect(await message(res)).toMatch(/no database named "gone_db"/);
    expect(await ok(h.call('GET', `${BASE}/${saved.id}`))).toEqual(saved);
  });

  it('answers 404 for ids that are not saved queries', async () => {
    for (const id of ['999', 'abc', '1e3']) expect((await h.call('GET', `${BASE}/${id}`)).status).toBe(404);
  });
});

describe('changing, duplicating, deleting, running', () => {
  it('changes only the fields sent', async () => {
    const saved = await ok(create(VALID));
    h.clock.advance(60_000);
    const changed = await ok(
      h.call('PATCH', `${BASE}/${saved.id}`, { json: { description: 'New', engine: 'hive', query: 'SELECT 1' } }),
    );
    expect(changed).toMatchObject({ name: 'Page count', description: 'New', engine: 'hive', query: 'SELECT 1' });
    expect(changed.updatedAt > saved.updatedAt).toBe(true);
  });

  it('duplicates under "Copy of …" or a given name, and deletes', async () => {
    const saved = await ok(create(VALID));
    const copy = await ok(h.call('POST', `${BASE}/${saved.id}/duplicate`));
    expect(copy).toMatchObject({ name: 'Copy of Page count', query: QUERY, database: 'web', lastRun: null });
    expect(copy.id).not.toBe(saved.id);
    const named = await ok(h.call('POST', `${BASE}/${saved.id}/duplicate`, { json: { name: 'Mine' } }));
    expect(named.name).toBe('Mine');
    expect((await h.call('POST', `${BASE}/${saved.id}/duplicate`)).status).toBe(409);
    await ok(h.call('DELETE', `${BASE}/${saved.id}`));
    expect((await list()).map((q) => q.name)).toEqual(['Copy of Page count', 'Mine']);
    expect((await h.call('GET', `${BASE}/${saved.id}`)).status).toBe(404);
  });

  it('runs as a job of the caller and records the last run with the job’s state', async () => {
    const saved = await ok(create(VALID));
    const res = await h.call('POST', `${BASE}/${saved.id}/run`);
    expect(res.status).toBe(200);
    const { jobId, savedQuery } = savedQueryRunAnswer.parse(await res.json());
    expect(savedQuery.lastRun?.jobId).toBe(jobId);
    expect(savedQuery.lastRun?.at).toBe(h.clock.now().toISOString());
    expect(await h.app.services.jobs.whenSettled(Number(jobId))).toBe('success');
    const after = await ok(h.call('GET', `${BASE}/${saved.id}`));
    expect(after.lastRun).toEqual({ jobId, at: savedQuery.lastRun?.at, status: 'success' });
    const job = (await (await h.call('GET', `/v3/job/show/${jobId}`)).json()) as Record<string, unknown>;
    expect(job).toMatchObject({ type: 'presto', database: 'web', query: QUERY });
    const rows = await (await h.call('GET', `/v3/job/result/${jobId}?format=json`)).text();
    expect(rows.trim()).toBe('[2]');
  });

  it('refuses to run a query whose database has gone, issuing no job', async () => {
    await tableWithRows(h, 'scratch', 'pageviews', []);
    const saved = await ok(create({ ...VALID, database: 'scratch' }));
    expect((await h.call('POST', '/v3/database/delete/scratch')).status).toBe(200);
    const res = await h.call('POST', `${BASE}/${saved.id}/run`);
    expect(res.status).toBe(400);
    expect(await message(res)).toMatch(/no database named "scratch"/);
    const jobs = (await (await h.call('GET', '/v3/job/list')).json()) as { count: number };
    expect(jobs.count).toBe(0);
    expect((await ok(h.call('GET', `${BASE}/${saved.id}`))).lastRun).toBeNull();
  });
});

describe('permissions', () => {
  it('lets a member run and duplicate anyone’s query, and change only their own', async () => {
    const adminQuery = await ok(create(VALID));
    const key = await member('ann');
    const seen = (await list('', { key }))[0];
    expect(seen?.editable).toBe(false);
    const run = await h.call('POST', `${BASE}/${adminQuery.id}/run`, { key });
    expect(run.status).toBe(200);
    const patch = await h.call('PATCH', `${BASE}/${adminQuery.id}`, { key, json: { name: 'Taken over' } });
    expect(patch.status).toBe(403);
    expect(await message(patch)).toMatch(/Only administrators and its owner/);
    expect((await h.call('DELETE', `${BASE}/${adminQuery.id}`, { key })).status).toBe(403);

    const copy = await ok(h.call('POST', `${BASE}/${adminQuery.id}/duplicate`, { key, json: { name: 'Ann’s' } }));
    expect(copy.editable).toBe(true);
    expect(copy.owner?.name).toBe('ann');
    await ok(h.call('PATCH', `${BASE}/${copy.id}`, { key, json: { description: 'mine' } }));
    // The administrator edits what the member owns.
    const byAdmin = await ok(h.call('PATCH', `${BASE}/${copy.id}`, { json: { description: 'reviewed' } }));
    expect(byAdmin.editable).toBe(true);
    await ok(h.call('DELETE', `${BASE}/${copy.id}`, { key }));
    expect((await list()).map((q) => [q.name, q.lastRun === null])).toEqual([['Page count', false]]);
  });
});

describe('OpenAPI', () => {
  it('documents every route', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths[BASE] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${BASE}/{id}`] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.paths[`${BASE}/{id}/run`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${BASE}/{id}/duplicate`] ?? {})).toEqual(['post']);
  });
});
