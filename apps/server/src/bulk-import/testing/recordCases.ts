import { tableLimits } from '../../data';

/** One column more than a table may have. */
export const tooWide: Record<string, unknown> = Object.fromEntries([
  ['time', 1],
  ...Array.from({ length: tableLimits.maxColumns + 1 }, (_, i) => [`c${i}`, i]),
]);

/**
 * Records whose time or keys the record rules must take, map or refuse: every odd `time` and every key that
 * is not a column name as it stands.
 */
export const awkwardRecords: Record<string, unknown>[] = [
  { time: 1700000000n, user: 'big int time' },
  { user: 'no time' },
  { time: null, user: 'null time' },
  { time: '1700000000', user: 'text time' },
  { time: 1.5, user: 'fraction time' },
  { time: 1e20, user: 'out of range' },
  { time: new Date(0), user: 'date' },
  { time: 1, userId: 'mapped key' },
  { time: 1, 'page-url': 'mapped key' },
  { time: 1, 'a-b': 1, a_b: 2 },
  { time: 1, rowid: 1 },
  { time: 1, '': 'empty key' },
  { time: 1, ['k'.repeat(200)]: 'long key' },
];
