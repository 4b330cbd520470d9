import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createParentSegment, DAY, failure, importRows, type Json, nowSeconds, ok } from './testing/audiences';

/**
 * The scenario: customers with a signup Unix time and an orders event table; a parent segment;
 * signup_time typed as timestamp; the segment "signed up within the past 7 days AND at least 2 orders in
 * the past 30 days".
 */
describe('parent segment scenario: recent sign-ups with two orders', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    const now = nowSeconds(h);
    const customer = (id: number, signupDaysAgo: number, country: string) => ({
      customer_id: id,
      name: `Customer ${id}`,
      country,
      signup_time: now - Math.round(signupDaysAgo * DAY),
      signup_text: new Date((now - signupDaysAgo * DAY) * 1000).toISOString(),
      time: now - 3600,
    });
    await importRows(h, 'shop', 'customers', [
      customer(1, 2, 'JP'), // 3 orders in the past 30 days: in
      customer(2, 3, 'US'), // 1 recent order, 2 older than 30 days: out
      customer(3, 10, 'JP'), // signed up too long ago: out
      customer(4, 6, 'FR'), // exactly 2 recent orders: in
      customer(5, 1, 'US'), // no orders: out
      customer(6, 6.9, 'JP'), // 2 orders, one 29 days ago: in
      customer(7, 7.5, 'JP'), // just outside the 7 days: out
    ]);
    const order = (id: number, daysAgo: number) => ({
      customer_id: id,
      amount: 10.5,
      status: 'paid',
      time: now - Math.round(daysAgo * DAY),
    });
    await importRows(h, 'shop', 'orders', [
      order(1, 1),
      order(1, 2),
      order(1, 20),
      order(2, 1),
      order(2, 40),
      order(2, 45),
      order(3, 1),
      order(3, 2),
      order(4, 3),
      order(4, 5),
      order(6, 1),
      order(6, 29),
      order(7, 1),
      order(7, 2),
    ]);
  });
  afterEach(() => h.close());

  const definition = {
    name: 'Customers',
    description: 'Everyone who signed up',
    master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
    attributes: [
      { name: 'name', parentColumn: 'name' },
      { name: 'signup_time', parentColumn: 'signup_time' },
      { name: 'signup_text', parentColumn: 'signup_text' },
      { name: 'country', parentColumn: 'country' },
    ],
    behaviors: [
      {
        name: 'orders',
        parentDatabaseName: 'shop',
        parentTableName: 'orders',
        foreignKey: 'customer_id',
        allColumns: false,
        schema: [{ parentColumn: 'amount' }, { parentColumn: 'status' }],
      },
      {
        name: 'all_orders',
        parentDatabaseName: 'shop',
        parentTableName: 'orders',
        foreignKey: 'customer_id',
        allColumns: true,
      },
    ],
  };

  it('builds the profiles, types signup_time as timestamp and counts the segment exactly', async () => {
    const record = await createParentSegment(h, definition);
    expect(record).toMatchObject({
      name: 'Customers',
      population: 7,
      createdBy: { id: String(h.admin.userId), name: 'admin' },
      updatedBy: { id: String(h.admin.userId), name: 'admin' },
      matrixUpdatedAt: h.clock.now().toISOString(),
      master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
      buildStatus: 'success',
    });
    const attributes = record.attributes as Json[];
    expect(attributes.map((a) => [a.name, a.type])).toEqual([
      ['name', 'string'],
      ['signup_time', 'number'],
      ['signup_text', 'string'],
      ['country', 'string'],
    ]);
    const folder = await ok(h.call('GET', `/entities/folders/${record.rootFolderId}`));
    expect(folder).toMatchObject({ data: { id: record.rootFolderId, type: 'folder-segment' } });

    // A time filter before the column is a timestamp is refused.
    const rule = {
      type: 'And',
      conditions: [
        {
          type: 'Value',
          leftValue: { name: 'signup_time' },
          operator: { type: 'TimeWithinPast', value: 7, unit: 'day' },
        },
        {
          type: 'Behavior',
          behavior: 'orders',
          window: { type: 'TimeWithinPast', value: 30, unit: 'day' },
          count: { type: 'GreaterEqual', rightValue: 2 },
        },
      ],
    };
    const early = await failure(
      h.call('POST', `/audiences/${record.id}/segments`, { json: { name: 'Recent buyers', rule } }),
      400,
    );
    expect(early).toContain('needs a timestamp column');

    // Fetch, edit the type, send the whole record back (spec: Parent segments, time filters).
    const edited = structuredClone(record);
    (edited.attributes as Json[])[1]!.type = 'timestamp';
    const updated = await ok(h.call('PUT', `/audiences/${record.id}`, { json: edited }));
    expect((updated.attributes as Json[])[1]).toMatchObject({ name: 'signup_time', type: 'timestamp' });
    expect(updated.id).toBe(record.id);
    expect(updated.createdAt).toBe(record.createdAt);
    // Only a type changed: no rebuild was needed.
    expect(updated.buildJobId).toBe(record.buildJobId);

    const segment = await ok(
      h.call('POST', `/audiences/${record.id}/segments`, { json: { name: 'Recent buyers', rule } }),
    );
    expect(segment).toMatchObject({ name: 'Recent buyers', folderId: record.rootFolderId, audienceId: record.id });
    const count = await ok(h.call('GET', `/audiences/${record.id}/segments/${segment.id}/population`));
    expect(count.population).toBe(3);
    const sample = await ok<{ profiles: { key: string; attributes: Json }[] }>(
      h.call('GET', `/audiences/${record.id}/segments/${segment.id}/sample`),
    );
    expect(sample.profiles.map((p) => p.key)).toEqual(['1', '4', '6']);
    expect(sample.profiles[0]?.attributes).toMatchObject({ name: 'Customer 1', country: 'JP' });

    // The unsaved-rule count of the console agrees.
    const live = await ok(h.call('POST', `/audiences/${record.id}/population`, { json: { rule } }));
    expect(live.population).toBe(3);

    // Time moves on: two days later customers 4 and 6 signed up more than 7 days ago.
    h.clock.advance(2 * DAY * 1000);
    const later = await ok(h.call('GET', `/audiences/${record.id}/segments/${segment.id}/population`));
    expect(later.population).toBe(1);

    // Typing the column back to number would break the saved segment: refused, naming it.
    const back = structuredClone(updated);
    (back.attributes as Json[])[1]!.type = 'number';
    const refused = await failure(h.call('PUT', `/audiences/${record.id}`, { json: back }), 409);
    expect(refused).toContain('Recent buyers');
    expect(refused).toContain('needs a timestamp column');

    // The segment is listed in its folder.
    const listing = await ok<{ data: Json[] }>(h.call('GET', `/entities/by-folder/${record.rootFolderId}?depth=1`));
    expect(listing.data.map((e) => [e.type, e.id])).toEqual([['segment', segment.id]]);
  });

  it('refuses a string column as timestamp, telling to convert it to Unix time', async () => {
    const record = await createParentSegment(h, definition);
    const edited = structuredClone(record);
    (edited.attributes as Json[])[2]!.type = 'timestamp';
    const message = await failure(h.call('PUT', `/audiences/${record.id}`, { json: edited }), 400);
    expect(message).toContain('signup_text');
    expect(message).toContain('Convert the column to Unix time');
    const after = await ok(h.call('GET', `/audiences/${record.id}`));
    expect((after.attributes as Json[])[2]).toMatchObject({ type: 'string' });
  });

  it('refuses changing one column of an all-columns behavior, telling to select columns individually', async () => {
    const record = await createParentSegment(h, definition);
    const edited = structuredClone(record);
    const all = (edited.behaviors as Json[])[1] as { schema: Json[] };
    expect(all.schema.map((c) => c.name)).toEqual(expect.arrayContaining(['time', 'customer_id', 'amount', 'status']));
    const time = all.schema.find((c) => c.name === 'time') as Json;
    time.type = 'timestamp';
    const message = await failure(h.call('PUT', `/audiences/${record.id}`, { json: edited }), 400);
    expect(message).toContain('allColumns: true');
    expect(message).toContain('Select the columns individually');

    // Renaming one of its columns is refused the same way, not dropped quietly.
    const renamed = structuredClone(record);
    const columns = ((renamed.behaviors as Json[])[1] as { schema: Json[] }).schema;
    (columns.find((c) => c.name === 'status') as Json).name = 'order_status';
    const rename = await failure(h.call('PUT', `/audiences/${record.id}`, { json: renamed }), 400);
    expect(rename).toContain('"status" cannot be renamed');
    expect(rename).toContain('Select the columns individually');
    // Sent back unchanged, the all-columns behavior is accepted.
    await ok(h.call('PUT', `/audiences/${record.id}`, { json: structuredClone(record) }));

    // The selected-columns behavior may type its long column; a double column may not be a timestamp.
    const selected = structuredClone(record);
    const orders = (selected.behaviors as Json[])[0] as { schema: Json[] };
    orders.schema = [{ parentColumn: 'amount', type: 'timestamp' }];
    const double = await failure(h.call('PUT', `/audiences/${record.id}`, { json: selected }), 400);
    expect(double).toContain('holds double values');
  });
});
