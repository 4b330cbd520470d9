import { afterEach, describe, expect, it } from 'vitest';
import type { NewAccount } from '../accounts';
import { member } from '../journeys/testing/world';
import { createHarness, type Harness } from '../testing/harness';
import { issue, tableWithRows } from './testing/jobs';

/** Runs until killed (or its time limit): it holds a slot. */
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let h: Harness;
afterEach(() => h.close());

async function world(jobs: { concurrency: number; overflow?: number; perAccount?: number; perUser?: number }) {
  h = await createHarness({}, { app: { jobs } });
  const other: NewAccount = await h.newAccount('Second');
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/' }]);
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/' }], other);
  const bob = await member(h, 'bob');
  return { other, bob };
}

const position = async (id: string, key?: string) =>
  ((await (await h.call('GET', `/v3/job/show/${id}`, key ? { key } : {})).json()) as { queue_position: number | null })
    .queue_position;
const statusOf = async (id: string, key?: string) =>
  ((await (await h.call('GET', `/v3/job/status/${id}`, key ? { key } : {})).json()) as { status: string }).status;

describe('fair job slots', () => {
  it('serves accounts and users round-robin, not first come, and shows each queued job its place', async () => {
    // Without overflow slots, so that every job waits for the one slot.
    const { other, bob } = await world({ concurrency: 1, overflow: 0 });
    const jobs = h.app.services.jobs;
    // The administrator fills the only slot and queues three more long queries before anybody else.
    const a1 = await issue(h, 'web', FOREVER);
    await jobs.whenStarted(Number(a1));
    const a2 = await issue(h, 'web', FOREVER);
    const a3 = await issue(h, 'web', FOREVER);
    const b1 = await issue(h, 'web', 'SELECT 1', { key: bob.key });
    const c1 = await issue(h, 'web', 'SELECT 2', { key: other.masterKey });
    // The other account was never served, then the other user of this account, then the administrator again.
    expect(await position(c1, other.masterKey)).toBe(1);
    expect(await position(b1, bob.key)).toBe(2);
    expect(await position(a2)).toBe(3);
    expect(await position(a3)).toBe(4);
    expect(await position(a1)).toBeNull();

    const started: string[] = [];
    for (const id of [a2, a3, b1, c1]) void jobs.whenStarted(Number(id)).then(() => started.push(id));
    // A killed job frees its slot at once: the next in fair order starts.
    await h.call('POST', `/v3/job/kill/${a1}`);
    expect(await jobs.whenSettled(Number(c1))).toBe('success');
    expect(await jobs.whenSettled(Number(b1))).toBe('success');
    await jobs.whenStarted(Number(a2));
    expect(started).toEqual([c1, b1, a2]);
    expect(await statusOf(a3)).toBe('queued');
    expect(await position(a3)).toBe(1);
    await h.call('POST', `/v3/job/kill/${a2}`);
    await h.call('POST', `/v3/job/kill/${a3}`);
  });

  it('holds a user to their limit, so a short query of another user starts while they saturate their share', async () => {
    const { other, bob } = await world({ concurrency: 3, perAccount: 2, perUser: 1 });
    const jobs = h.app.services.jobs;
    const a1 = await issue(h, 'web', FOREVER);
    const a2 = await issue(h, 'web', FOREVER);
    await jobs.whenStarted(Number(a1));
    // One running job is this user's share: the second waits though two slots are free.
    expect(await statusOf(a2)).toBe('queued');
    const b1 = await issue(h, 'web', 'SELECT 1', { key: bob.key });
    expect(await jobs.whenSettled(Number(b1))).toBe('success');
    // The account's limit (2) with bob's long query: the other account still gets the third slot.
    const b2 = await issue(h, 'web', FOREVER, { key: bob.key });
    await jobs.whenStarted(Number(b2));
    const c1 = await issue(h, 'web', 'SELECT 2', { key: other.masterKey });
    expect(await jobs.whenSettled(Number(c1))).toBe('success');
    expect(await statusOf(a2)).toBe('queued');
    for (const id of [a1, a2, b2]) await h.call('POST', `/v3/job/kill/${id}`);
    expect(await jobs.whenSettled(Number(a2))).toBe('killed');
  });

  it("starts a third account's short query at once while two accounts hold every slot with long queries", async () => {
    const { other } = await world({ concurrency: 4, perAccount: 4, perUser: 4 });
    const third: NewAccount = await h.newAccount('Third');
    await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/' }], third);
    const jobs = h.app.services.jobs;
    // The first account runs three long queries and the second one: every slot is taken.
    const a = [await issue(h, 'web', FOREVER), await issue(h, 'web', FOREVER), await issue(h, 'web', FOREVER)];
    const b1 = await issue(h, 'web', FOREVER, { key: other.masterKey });
    for (const id of [...a, b1]) await jobs.whenStarted(Number(id));
    // A fourth long query of the first account waits: it already runs jobs.
    const a4 = await issue(h, 'web', FOREVER);
    // The third account runs nothing: its query starts in an overflow slot and ends.
    const c1 = await issue(h, 'web', 'SELECT 1', { key: third.masterKey });
    expect(await jobs.whenSettled(Number(c1))).toBe('success');
    expect(await statusOf(a4)).toBe('queued');
    for (const id of [...a, a4]) await h.call('POST', `/v3/job/kill/${id}`);
    await h.call('POST', `/v3/job/kill/${b1}`, { key: other.masterKey });
    expect(await jobs.whenSettled(Number(b1))).toBe('killed');
  });
});
