import { afterEach, describe, expect, it } from 'vitest';
import { dwhHarness } from '../dwh/testing/fixture';
import { buildWorld, welcomeJourney } from '../journeys/testing/world';
import { sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { storedEntries } from './testing/entries';

/**
 * A journey's launch, pause, resume and deletion, and a warehouse switch or authentication change, are
 * written in one transaction with their audit entry: when the entry cannot be written (here the log's
 * table is moved away), the change is not made either.
 */
describe('audit entries are written with the change they record', () => {
  let h: Harness;
  afterEach(() => h.close());

  /** Makes every audit write fail (the table is renamed), or puts the table back. */
  const logWritable = async (writable: boolean) => {
    const [from, to] = writable ? ['audit_events_away', 'audit_events'] : ['audit_events', 'audit_events_away'];
    await sql.raw(`ALTER TABLE ${from} RENAME TO ${to}`).execute(h.deps.storage.db);
  };
  const state = async (id: string) => {
    const res = await h.call('GET', `/entities/journeys/${id}`);
    if (res.status === 404) return 'gone';
    const { data } = (await res.json()) as { data: { attributes: { state: string; pausedAt?: string | null } } };
    return data.attributes.pausedAt ? `${data.attributes.state}, paused` : data.attributes.state;
  };
  const status = async (method: string, path: string, json?: unknown) =>
    (await h.call(method, path, json === undefined ? {} : { json })).status;

  it('leaves the journey as it was when its audit entry cannot be written', async () => {
    h = await createHarness();
    const world = await buildWorld(h);
    const journey = (name: string, state: string) => welcomeJourney(world, name, state);
    const create = async (name: string, state: string) => {
      const res = await h.call('POST', '/entities/journeys', { json: journey(name, state) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const draft = await create('Draft', 'draft');
    const running = await create('Running', 'launched');
    const paused = await create('Paused', 'launched');
    expect(await status('PATCH', `/entities/journeys/${paused}/pause`)).toBe(200);
    const entries = (await storedEntries(h)).length;

    await logWritable(false);
    expect(await status('POST', '/entities/journeys', journey('Born launched', 'launched'))).toBe(500);
    expect(await status('PATCH', `/entities/journeys/${draft}`, { attributes: { state: 'launched' } })).toBe(500);
    expect(await status('PATCH', `/entities/journeys/${running}/pause`)).toBe(500);
    expect(await status('PATCH', `/entities/journeys/${paused}/resume`)).toBe(500);
    expect(await status('DELETE', `/entities/journeys/${paused}`)).toBe(500);
    await logWritable(true);

    expect([await state(draft), await state(running), await state(paused)]).toEqual([
      'draft',
      'launched',
      'launched, paused',
    ]);
    const names = (await h.call('GET', '/entities/journeys').then((r) => r.json())) as {
      data: { attributes: { name: string } }[];
    };
    expect(names.data.map((j) => j.attributes.name).sort()).toEqual(['Draft', 'Paused', 'Running']);
    expect((await storedEntries(h)).length).toBe(entries);
  });

  it('leaves the warehouse switch and authentications as they were when their audit entry cannot be written', async () => {
    h = await dwhHarness();
    const created = await h.call('POST', '/v1/authentications', {
      json: { name: 'warehouse', host: '127.0.0.1', port: 5432, database: 'shop', user: 'reader', password: 'pw-1' },
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    const entries = (await storedEntries(h)).length;

    await logWritable(false);
    expect(await status('PUT', '/v1/dwh/feature', { enabled: false })).toBe(500);
    expect(
      await status('POST', '/v1/authentications', {
        name: 'second',
        host: '127.0.0.1',
        database: 'shop',
        user: 'reader',
      }),
    ).toBe(500);
    expect(await status('PATCH', `/v1/authentications/${id}`, { name: 'renamed', port: 5433 })).toBe(500);
    expect(await status('DELETE', `/v1/authentications/${id}`)).toBe(500);
    await logWritable(true);

    expect(await (await h.call('GET', '/v1/dwh/feature')).json()).toMatchObject({ enabled: true });
    const list = (await (await h.call('GET', '/v1/authentications')).json()) as {
      authentications: { name: string; port: number }[];
    };
    expect(list.authentications.map((a) => [a.name, a.port])).toEqual([['warehouse', 5432]]);
    expect((await storedEntries(h)).length).toBe(entries);
  });
});
