import { describe, expect, it } from 'vitest';
import { columnsToAdd, keptColumns, leftOutKeys, matchColumns, parseSchema } from './match';

describe('keptColumns', () => {
  it('leaves out skipped columns and the time column, and uses the new names', () => {
    const columns = [
      { source: 'ts', name: 'ts', type: 'long' as const, skip: false },
      { source: 'Page', name: 'page', type: 'string' as const, skip: false },
      { source: 'junk', name: 'junk', type: 'string' as const, skip: true },
    ];
    const time = { mode: 'column' as const, column: 'ts', form: 'unix_s' as const, format: '', timeZone: 'UTC' };
    expect(keptColumns(columns, time)).toEqual([['page', 'string']]);
    expect(keptColumns(columns, { mode: 'import' })).toEqual([
      ['ts', 'long'],
      ['page', 'string'],
    ]);
  });

  it('lists the keys left out by the user, but not a time column left unchecked', () => {
    const columns = [
      { source: 'ts', name: 'ts', type: 'long' as const, skip: true },
      { source: 'Page', name: 'page', type: 'string' as const, skip: false },
      { source: 'junk', name: 'junk', type: 'string' as const, skip: true },
    ];
    const time = { mode: 'column' as const, column: 'ts', form: 'unix_s' as const, format: '', timeZone: 'UTC' };
    expect(leftOutKeys(columns, time)).toEqual(['junk']);
    expect(leftOutKeys(columns, { mode: 'import' })).toEqual(['ts', 'junk']);
  });
});

describe('parseSchema', () => {
  it('reads [name, type] pairs and tolerates aliases, junk and nothing', () => {
    expect(parseSchema('[["a","long"],["b","string","b_alias"]]')).toEqual([
      ['a', 'long'],
      ['b', 'string'],
    ]);
    expect(parseSchema('not json')).toEqual([]);
    expect(parseSchema(null)).toEqual([]);
    expect(parseSchema('{"a":1}')).toEqual([]);
  });
});

describe('matchColumns', () => {
  const schema: [string, string][] = [
    ['user', 'string'],
    ['amount', 'long'],
    ['price', 'double'],
    ['n', 'int'],
  ];

  it('marks new columns, matching ones and type conflicts', () => {
    const matches = matchColumns(
      [
        ['user', 'string'],
        ['coupon', 'string'],
        ['amount', 'string'],
        ['price', 'long'],
        ['n', 'long'],
        ['ratio', 'double'],
      ],
      schema,
    );
    expect(matches.map((m) => [m.name, m.status])).toEqual([
      ['user', 'same'],
      ['coupon', 'new'],
      ['amount', 'conflict'],
      ['price', 'same'],
      ['n', 'same'],
      ['ratio', 'new'],
    ]);
    expect(matches[1]?.note).toBe('will add column coupon (string)');
    expect(matches[2]?.note).toMatch(/^amount is long in the table but string here/);
    expect(matches[2]?.existing).toBe('long');
  });

  it('a double into a long column conflicts (the decimals would not fit)', () => {
    expect(matchColumns([['amount', 'double']], schema)[0]?.status).toBe('conflict');
  });

  it('columnsToAdd gives only the new columns with their types', () => {
    expect(
      columnsToAdd(
        [
          ['user', 'string'],
          ['coupon', 'string'],
          ['ratio', 'double'],
        ],
        schema,
      ),
    ).toEqual([
      ['coupon', 'string'],
      ['ratio', 'double'],
    ]);
  });
});
