import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createParentSegment, DAY, failure, importRows, type Json, keysOf, nowSeconds, ok } from './testing/audiences';

/** Every operator and time filter against answers computed by hand from five people. */
describe('segment rule operators', () => {
  let h: Harness;
  let id: string;
  let now: number;
  const INJECTION = "' OR 1=1 --";

  beforeAll(async () => {
    h = await createHarness();
    now = nowSeconds(h);
    await importRows(h, 'crm', 'people', [
      { id: 1, name: 'Alice', age: 30, score: 1.5, city: 'Tokyo', email: 'alice@example.com', seen_at: now - DAY },
      { id: 2, name: 'Bob', age: 45, score: 2.5, city: 'Osaka', email: 'bob@test.org', seen_at: now - 10 * DAY },
      { id: 3, name: 'Carol', age: 22, email: 'carol@example.com', seen_at: now + 3 * DAY },
      { id: 4, name: INJECTION, age: 60, score: 9.25, city: 'Tokyo', email: 'x@y.z', seen_at: now - 40 * DAY },
      { id: 5, name: 'Dave', age: 30, score: 0.5, city: 'Kyoto', email: 'dave@example.org' },
    ]);
    const visit = (who: number, kind: string, daysAgo: number) => ({ person: who, kind, time: now - daysAgo * DAY });
    await importRows(h, 'crm', 'visits', [
      visit(1, 'page', 1),
      visit(1, 'page', 2),
      visit(1, 'page', 3),
      visit(2, 'page', 1),
      visit(2, 'click', 1),
      visit(2, 'click', 5),
      ...[50, 51, 52, 53, 54].map((d) => visit(4, 'page', d)),
    ]);
    await importRows(h, 'crm', 'mails', [
      { address: 'alice@example.com', time: now - DAY },
      { address: 'alice@example.com', time: now - 2 * DAY },
      { address: 'dave@example.org', time: now - DAY },
      { address: 'nobody@example.com', time: now - DAY },
    ]);
    const record = await createParentSegment(h, {
      name: 'People',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: ['name', 'age', 'score', 'city', 'email']
        .map((c) => ({ name: c, parentColumn: c }))
        .concat([{ name: 'seen_at', parentColumn: 'seen_at', type: 'timestamp' } as never]),
      behaviors: [
        {
          name: 'visits',
          parentDatabaseName: 'crm',
          parentTableName: 'visits',
          foreignKey: 'person',
          schema: [{ parentColumn: 'kind' }],
        },
        // Joined on another master column than the key.
        {
          name: 'mails',
          parentDatabaseName: 'crm',
          parentTableName: 'mails',
          parentKey: 'email',
          foreignKey: 'address',
        },
      ],
    });
    id = record.id as string;
    expect(record.population).toBe(5);
  });
  afterAll(() => h.close());

  const value = (name: string, operator: Json, extra: Json = {}) => ({
    type: 'Value',
    leftValue: { name },
    operator,
    ...extra,
  });
  const all = (...conditions: Json[]) => ({ type: 'And', conditions });
  const any = (...conditions: Json[]) => ({ type: 'Or', conditions });
  const keys = (rule: Json) => keysOf(h, id, rule);

  it.each([
    ['Equal text', value('name', { type: 'Equal', rightValue: 'Alice' }), ['1']],
    ['Equal number', value('age', { type: 'Equal', rightValue: 30 }), ['1', '5']],
    ['Equal number given as text', value('age', { type: 'Equal', rightValue: '30' }), ['1', '5']],
    ['NotEqual leaves out missing values', value('city', { type: 'NotEqual', rightValue: 'Tokyo' }), ['2', '5']],
    [
      'not Equal takes the complement',
      value('city', { type: 'Equal', rightValue: 'Tokyo', not: true }),
      ['2', '3', '5'],
    ],
    ['Greater', value('age', { type: 'Greater', rightValue: 30 }), ['2', '4']],
    ['GreaterEqual', value('age', { type: 'GreaterEqual', rightValue: 45 }), ['2', '4']],
    ['Less', value('age', { type: 'Less', rightValue: 30 }), ['3']],
    ['LessEqual', value('age', { type: 'LessEqual', rightValue: 30 }), ['1', '3', '5']],
    ['Greater on a double', value('score', { type: 'Greater', rightValue: 1 }), ['1', '2', '4']],
    ['Between, both ends included', value('age', { type: 'Between', minValue: 22, maxValue: 30 }), ['1', '3', '5']],
    ['In', value('city', { type: 'In', rightValue: ['Osaka', 'Kyoto'] }), ['2', '5']],
    ['Contain', value('email', { type: 'Contain', rightValue: 'example' }), ['1', '3', '5']],
    ['StartWith', value('name', { type: 'StartWith', rightValue: 'Ca' }), ['3']],
    ['EndWith', value('email', { type: 'EndWith', rightValue: '.org' }), ['2', '5']],
    ['Regexp', value('email', { type: 'Regexp', rightValue: '^[a-c].*@example\\.com$' }), ['1', '3']],
    ['IsNull', value('city', { type: 'IsNull' }), ['3']],
    ['not IsNull', value('city', { type: 'IsNull', not: true }), ['1', '2', '4', '5']],
    ['exclude', all(value('city', { type: 'Equal', rightValue: 'Tokyo' }, { exclude: true })), ['2', '3', '5']],
    [
      'Or',
      any(value('name', { type: 'Equal', rightValue: 'Alice' }), value('name', { type: 'Equal', rightValue: 'Bob' })),
      ['1', '2'],
    ],
    [
      'nested groups',
      all(
        value('city', { type: 'Equal', rightValue: 'Tokyo' }),
        any(value('age', { type: 'Less', rightValue: 40 }), value('name', { type: 'Equal', rightValue: INJECTION })),
      ),
      ['1', '4'],
    ],
    ['an empty rule is everyone', all(), ['1', '2', '3', '4', '5']],
  ])('%s', async (_name, rule, expected) => {
    expect(await keys(rule.type === 'Value' ? all(rule) : rule)).toEqual(expected);
  });

  it.each([
    ['TimeWithinPast 7 days', { type: 'TimeWithinPast', value: 7, unit: 'day' }, ['1']],
    ['TimeWithinPast 2 weeks', { type: 'TimeWithinPast', value: 2, unit: 'week' }, ['1', '2']],
    ['TimeWithinPast 1 month', { type: 'TimeWithinPast', value: 1, unit: 'month' }, ['1', '2']],
    ['TimeWithinPast 2 months', { type: 'TimeWithinPast', value: 2, unit: 'month' }, ['1', '2', '4']],
    ['TimeWithinNext 7 days', { type: 'TimeWithinNext', value: 7, unit: 'day' }, ['3']],
    ['TimeBefore (Unix seconds)', { type: 'TimeBefore', rightValue: 'NOW-20' }, ['4']],
    ['TimeAfter now', { type: 'TimeAfter', rightValue: 'NOW' }, ['3']],
    ['TimeRange (ISO 8601)', { type: 'TimeRange', from: 'NOW-15', to: 'NOW' }, ['1', '2']],
    ['not TimeWithinPast', { type: 'TimeWithinPast', value: 7, unit: 'day', not: true }, ['2', '3', '4', '5']],
  ])('%s', async (_name, operator, expected) => {
    const iso = (days: number) => new Date((now - days * DAY) * 1000).toISOString();
    const resolved = JSON.parse(
      JSON.stringify(operator)
        .replace('"NOW-20"', String(now - 20 * DAY))
        .replace('"NOW-15"', JSON.stringify(iso(15)))
        .replace('"NOW"', JSON.stringify(iso(0))),
    );
    expect(await keys(all(value('seen_at', resolved)))).toEqual(expected);
  });

  // now is 2026-11-22 09:00 UTC: Alice was seen on Nov 21, Bob on Nov 12, Carol on Nov 25 and 4 on Oct 13, at 09:00.
  it.each([
    [
      'TimeRange of dates includes its last day',
      { type: 'TimeRange', from: '2026-11-12', to: '2026-11-21' },
      ['1', '2'],
    ],
    ['TimeRange of one day', { type: 'TimeRange', from: '2026-11-21', to: '2026-11-21' }, ['1']],
    ['TimeAfter a date starts after that day', { type: 'TimeAfter', rightValue: '2026-11-21' }, ['3']],
    ['TimeBefore a date ends before that day', { type: 'TimeBefore', rightValue: '2026-11-12' }, ['4']],
    ['TimeBefore the next date', { type: 'TimeBefore', rightValue: '2026-11-13' }, ['2', '4']],
    [
      'TimeRange to a full timestamp is exact (inclusive)',
      { type: 'TimeRange', from: '2026-11-12', to: '2026-11-21T09:00:00Z' },
      ['1', '2'],
    ],
    [
      'TimeRange to a second earlier leaves that profile out',
      { type: 'TimeRange', from: '2026-11-12', to: '2026-11-21T08:59:59Z' },
      ['2'],
    ],
    ['TimeAfter a full timestamp is strict', { type: 'TimeAfter', rightValue: '2026-11-21T09:00:00Z' }, ['3']],
    ['TimeAfter a second earlier', { type: 'TimeAfter', rightValue: '2026-11-21T08:59:59Z' }, ['1', '3']],
    ['Equal a date is that whole day', { type: 'Equal', rightValue: '2026-11-21' }, ['1']],
    ['NotEqual a date', { type: 'NotEqual', rightValue: '2026-11-21' }, ['2', '3', '4']],
    ['Equal a full timestamp is exact', { type: 'Equal', rightValue: '2026-11-21T09:00:00Z' }, ['1']],
    ['Equal a second later matches nothing', { type: 'Equal', rightValue: '2026-11-21T09:00:01Z' }, []],
    ['Greater a date is after that day', { type: 'Greater', rightValue: '2026-11-21' }, ['3']],
    ['GreaterEqual a date includes it', { type: 'GreaterEqual', rightValue: '2026-11-21' }, ['1', '3']],
    ['Less a date is before it', { type: 'Less', rightValue: '2026-11-21' }, ['2', '4']],
    ['LessEqual a date includes it', { type: 'LessEqual', rightValue: '2026-11-21' }, ['1', '2', '4']],
    [
      'Between dates includes both days',
      { type: 'Between', minValue: '2026-11-12', maxValue: '2026-11-21' },
      ['1', '2'],
    ],
    [
      'Between a date and a timestamp',
      { type: 'Between', minValue: '2026-11-12', maxValue: '2026-11-21T08:59:59Z' },
      ['2'],
    ],
    ['In dates', { type: 'In', rightValue: ['2026-11-12', '2026-11-25'] }, ['2', '3']],
    ['not Equal a date', { type: 'Equal', rightValue: '2026-11-21', not: true }, ['2', '3', '4', '5']],
  ])('date-only and exact times: %s', async (_name, operator, expected) => {
    expect(new Date(now * 1000).toISOString()).toBe('2026-11-22T09:00:00.000Z');
    expect(await keys(all(value('seen_at', operator)))).toEqual(expected);
  });

  it('runs Regexp in linear time: a catastrophic pattern on long values answers, and JS-only syntax is 400', async () => {
    await importRows(h, 'crm', 'long_values', [
      { id: 1, text: `${'a'.repeat(5000)}b` },
      { id: 2, text: 'a'.repeat(5000) },
      { id: 3, text: 'aaab'.repeat(1000) },
    ]);
    const long = await createParentSegment(h, {
      name: 'Long values',
      master: { parentDatabaseName: 'crm', parentTableName: 'long_values', parentKey: 'id' },
      attributes: [{ name: 'text', parentColumn: 'text' }],
    });
    const rule = all(value('text', { type: 'Regexp', rightValue: '^(a+)+$' }));
    expect(await keysOf(h, long.id, rule)).toEqual(['2']);
    expect(await keysOf(h, long.id, all(value('text', { type: 'Regexp', rightValue: '(a|aa)*b$' })))).toEqual([
      '1',
      '3',
    ]);
    const count = (pattern: string) =>
      h.call('POST', `/audiences/${long.id}/population`, {
        json: { rule: all(value('text', { type: 'Regexp', rightValue: pattern })) },
      });
    expect(await failure(count('(a)\\1'), 400)).toContain('RE2 syntax');
    expect(await failure(count('a(?=b)'), 400)).toContain('not a valid regular expression');
    expect(await failure(count('a'.repeat(1001)), 400)).toContain('1000');
  });

  it('refuses a time filter inside a behavior condition on a non-timestamp behavior column', async () => {
    const rule = all({
      type: 'Behavior',
      behavior: 'visits',
      filter: all(value('kind', { type: 'TimeWithinPast', value: 3, unit: 'day' })),
      count: { type: 'GreaterEqual', rightValue: 1 },
    });
    const message = await failure(h.call('POST', `/audiences/${id}/population`, { json: { rule } }), 400);
    expect(message).toContain('needs a timestamp column');
    expect(message).toContain('"kind"');
  });

  it.each([
    ['any time, at least 3', { count: { type: 'GreaterEqual', rightValue: 3 } }, ['1', '2', '4']],
    [
      'filtered on a column',
      { filter: all(value('kind', { type: 'Equal', rightValue: 'click' })), count: { type: 'Equal', rightValue: 2 } },
      ['2'],
    ],
    [
      'none in the past 30 days',
      { window: { type: 'TimeWithinPast', value: 30, unit: 'day' }, count: { type: 'Equal', rightValue: 0 } },
      ['3', '4', '5'],
    ],
    ['between 1 and 3', { count: { type: 'Between', minValue: 1, maxValue: 3 } }, ['1', '2']],
    ['excluded', { exclude: true, count: { type: 'Greater', rightValue: 0 } }, ['3', '5']],
  ])('behavior: %s', async (_name, extra, expected) => {
    expect(await keys(all({ type: 'Behavior', behavior: 'visits', ...extra }))).toEqual(expected);
  });

  it('joins a behavior on a master column other than the key', async () => {
    const twice = { type: 'Behavior', behavior: 'mails', count: { type: 'GreaterEqual', rightValue: 2 } };
    const once = { type: 'Behavior', behavior: 'mails', count: { type: 'Equal', rightValue: 1 } };
    expect(await keys(all(twice))).toEqual(['1']);
    expect(await keys(all(once))).toEqual(['5']);
  });

  it('includes and excludes another segment, and refuses deleting a segment in use', async () => {
    const tokyo = await ok(
      h.call('POST', `/audiences/${id}/segments`, {
        json: { name: 'Tokyo', rule: all(value('city', { type: 'Equal', rightValue: 'Tokyo' })) },
      }),
    );
    expect(await keys(all({ type: 'Segment', segmentId: tokyo.id }))).toEqual(['1', '4']);
    expect(await keys(all({ type: 'Segment', segmentId: tokyo.id, exclude: true }))).toEqual(['2', '3', '5']);
    const user = await ok(
      h.call('POST', `/audiences/${id}/segments`, {
        json: { name: 'Not Tokyo', rule: all({ type: 'Segment', segmentId: tokyo.id, exclude: true }) },
      }),
    );
    const refused = await failure(h.call('DELETE', `/audiences/${id}/segments/${tokyo.id}`), 409);
    expect(refused).toContain('Not Tokyo');
    // A segment cannot include itself.
    const cycle = await failure(
      h.call('PUT', `/audiences/${id}/segments/${tokyo.id}`, {
        json: { name: 'Tokyo', rule: all({ type: 'Segment', segmentId: user.id }) },
      }),
      400,
    );
    expect(cycle).toContain('includes itself');
    await ok(h.call('DELETE', `/audiences/${id}/segments/${user.id}`));
    await ok(h.call('DELETE', `/audiences/${id}/segments/${tokyo.id}`));
    await failure(h.call('GET', `/audiences/${id}/segments/${tokyo.id}`), 404);
  });

  it('matches SQL-looking values only literally', async () => {
    expect(await keys(all(value('name', { type: 'Equal', rightValue: INJECTION })))).toEqual(['4']);
    expect(await keys(all(value('city', { type: 'Equal', rightValue: INJECTION })))).toEqual([]);
    expect(await keys(all(value('name', { type: 'Contain', rightValue: "' OR '1'='1" })))).toEqual([]);
    expect(
      await keys(all(value('city', { type: 'In', rightValue: [INJECTION, 'x"); DROP TABLE profiles; --'] }))),
    ).toEqual([]);
    expect(await keys(all(value('email', { type: 'StartWith', rightValue: "%' --" })))).toEqual([]);
    expect(await keys(all(value('name', { type: 'Regexp', rightValue: "^' OR" })))).toEqual(['4']);
    // The profiles are all still there.
    expect(await keys(all())).toHaveLength(5);
  });

  it('refuses unknown operators, bad values and time filters on non-timestamp columns with 400', async () => {
    const count = (rule: unknown) => h.call('POST', `/audiences/${id}/population`, { json: { rule } });
    expect(await failure(count(all(value('age', { type: 'Like', rightValue: 1 }))), 400)).toContain(
      'Unknown operator "Like"',
    );
    expect(await failure(count({ type: 'Xor', conditions: [] }), 400)).toContain('"And" | "Or"');
    expect(await failure(count(all({ type: 'Magic' })), 400)).toContain('Unknown condition type "Magic"');
    expect(await failure(count(all(value('age', { type: 'TimeWithinPast', value: 3, unit: 'day' }))), 400)).toContain(
      'needs a timestamp column',
    );
    expect(await failure(count(all(value('nope', { type: 'IsNull' }))), 400)).toContain('"nope"');
    expect(await failure(count(all(value('age', { type: 'Equal', rightValue: 'thirty' }))), 400)).toContain('number');
    expect(await failure(count(all(value('name', { type: 'Regexp', rightValue: '(' }))), 400)).toContain(
      'not a valid regular expression',
    );
    expect(await failure(count(all(value('seen_at', { type: 'TimeAfter', rightValue: 'soon' }))), 400)).toContain(
      'ISO 8601',
    );
    expect(
      await failure(count(all({ type: 'Behavior', behavior: 'nope', count: { type: 'Equal', rightValue: 1 } })), 400),
    ).toContain('"nope"');
    expect(await failure(count(all({ type: 'Segment', segmentId: '999' })), 400)).toContain('"999"');
    expect(await failure(count(all(value('age', { type: 'Equal' }))), 400)).toContain('rule');
  });
});
