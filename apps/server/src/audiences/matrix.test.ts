import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';
import { createParentSegment, failure, importRows, type Json, keysOf, ok } from './testing/audiences';

/**
 * The profile build (matrix.ts) and rules over it where the backends differ underneath: names past
 * PostgreSQL's 63-byte identifiers, key order, joins on master columns of another type than the foreign
 * key, and Unicode classes in patterns.
 */
describe(`parent segment profiles (${testBackend()})`, () => {
  let h: Harness;
  const long = `attribute_${'x'.repeat(100)}`;
  const longer = `${long}_2`;
  const all = (...conditions: Json[]) => ({ type: 'And', conditions });
  const value = (name: string, operator: Json) => ({ type: 'Value', leftValue: { name }, operator });

  beforeAll(async () => {
    h = await createHarness();
    await importRows(h, 'crm', 'people', [
      { id: 'a', account_no: 7, [long]: 'first', [longer]: 1 },
      { id: 'B', account_no: 8, [long]: 'second', [longer]: 2 },
      { id: '_', account_no: 9, [long]: 'third', [longer]: 3 },
      { id: 'é', account_no: 10, [long]: 'fourth', [longer]: 4 },
    ]);
    // The foreign keys are text where the master column is a number: they match as text, on both backends.
    await importRows(h, 'crm', 'plans', [
      { account: '7', plan: 'pro', time: 1 },
      { account: '7', plan: 'free', time: 2 },
      { account: '9', plan: 'pro', time: 1 },
    ]);
    await importRows(h, 'crm', 'visits', [
      { account: '8', [long]: 'page', time: 1 },
      { account: '8', [long]: 'page', time: 2 },
      { account: '10', [long]: 'click', time: 3 },
    ]);
  });
  afterAll(() => h.close());

  it('builds attributes, joins and behaviors whose names exceed 63 bytes, and reads them back', async () => {
    const record = await createParentSegment(h, {
      name: 'Long names',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: [
        { name: 'long text', parentColumn: long },
        { name: 'long number', parentColumn: longer },
        {
          name: 'plan',
          parentDatabaseName: 'crm',
          parentTableName: 'plans',
          parentColumn: 'plan',
          parentKey: 'account_no',
          foreignKey: 'account',
        },
      ],
      behaviors: [
        {
          name: 'visits',
          parentDatabaseName: 'crm',
          parentTableName: 'visits',
          parentKey: 'account_no',
          foreignKey: 'account',
          schema: [{ parentColumn: long, name: 'kind' }],
        },
      ],
    });
    expect(record.population).toBe(4);
    expect(await keysOf(h, record.id, all(value('long text', { type: 'Equal', rightValue: 'second' })))).toEqual(['B']);
    expect(await keysOf(h, record.id, all(value('long number', { type: 'Greater', rightValue: 2.5 })))).toEqual([
      '_',
      'é',
    ]);
    // The newest plan row of account 7 is "free".
    expect(await keysOf(h, record.id, all(value('plan', { type: 'Equal', rightValue: 'pro' })))).toEqual(['_']);
    const visits = (kind: string, count: Json) => ({
      type: 'Behavior',
      behavior: 'visits',
      filter: all(value('kind', { type: 'Equal', rightValue: kind })),
      count,
    });
    expect(await keysOf(h, record.id, all(visits('page', { type: 'Equal', rightValue: 2 })))).toEqual(['B']);
    expect(await keysOf(h, record.id, all(visits('click', { type: 'GreaterEqual', rightValue: 1 })))).toEqual(['é']);
    // Samples come in key order by code point, with every attribute.
    const sample = await ok<{ profiles: { key: string; attributes: Json }[]; population: number }>(
      h.call('POST', `/audiences/${record.id}/sample`, { json: { rule: all(), limit: 10 } }),
    );
    expect(sample.population).toBe(4);
    expect(sample.profiles.map((p) => p.key)).toEqual(['B', '_', 'a', 'é']);
    expect(sample.profiles[2]?.attributes).toEqual({ 'long text': 'first', 'long number': 1, plan: 'free' });
  });

  it('answers a Unicode class in a pattern where the backend has one, and 400 where it has none', async () => {
    const record = await createParentSegment(h, {
      name: 'Patterns',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: [{ name: 'text', parentColumn: long }],
    });
    const rule = all(value('text', { type: 'Regexp', rightValue: '^\\p{Lu}' }));
    if (testBackend() === 'sqlite') {
      expect(await keysOf(h, record.id, rule)).toEqual([]);
      expect(await keysOf(h, record.id, all(value('text', { type: 'Regexp', rightValue: '^\\pL+$' })))).toHaveLength(4);
    } else {
      const message = await failure(h.call('POST', `/audiences/${record.id}/population`, { json: { rule } }), 400);
      expect(message).toContain('Unicode classes');
    }
    // Everything else in RE2's syntax runs on both: case-insensitive groups, word boundaries, counts.
    const same = all(value('text', { type: 'Regexp', rightValue: '(?i:F)[a-z]{3,300}\\b' }));
    expect(await keysOf(h, record.id, same)).toEqual(['a', 'é']);
  });
});
