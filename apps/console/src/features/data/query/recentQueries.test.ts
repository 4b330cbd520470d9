import { describe, expect, it } from 'vitest';
import { forgetRecentQueries, loadRecentQueries, MAX_RECENT, recentQueriesKey, rememberQuery } from './recentQueries';

/** A Storage with the browser's interface, kept in a Map. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

describe('recent queries', () => {
  it('keeps the newest first, per user', () => {
    const storage = memoryStorage();
    rememberQuery(storage, 1, { database: 'web', query: 'SELECT 1', at: 1 });
    rememberQuery(storage, 1, { database: 'web', query: 'SELECT 2', at: 2 });
    rememberQuery(storage, 2, { database: 'shop', query: 'SELECT 3', at: 3 });
    expect(loadRecentQueries(storage, 1).map((q) => q.query)).toEqual(['SELECT 2', 'SELECT 1']);
    expect(loadRecentQueries(storage, 2).map((q) => q.query)).toEqual(['SELECT 3']);
  });

  it('moves a query run again to the top instead of repeating it', () => {
    const storage = memoryStorage();
    rememberQuery(storage, 1, { database: 'web', query: 'SELECT 1', at: 1 });
    rememberQuery(storage, 1, { database: 'web', query: 'SELECT 2', at: 2 });
    const list = rememberQuery(storage, 1, { database: 'web', query: 'SELECT 1 ', at: 3, jobId: '9' });
    expect(list.map((q) => [q.query, q.at])).toEqual([
      ['SELECT 1 ', 3],
      ['SELECT 2', 2],
    ]);
  });

  it(`keeps at most ${MAX_RECENT}`, () => {
    const storage = memoryStorage();
    for (let i = 0; i < MAX_RECENT + 5; i++)
      rememberQuery(storage, 1, { database: 'web', query: `SELECT ${i}`, at: i });
    const list = loadRecentQueries(storage, 1);
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]?.query).toBe(`SELECT ${MAX_RECENT + 4}`);
  });

  it('survives damaged storage and a full quota, and can be cleared', () => {
    const storage = memoryStorage();
    storage.setItem(recentQueriesKey(1), '{not json');
    expect(loadRecentQueries(storage, 1)).toEqual([]);
    storage.setItem(recentQueriesKey(1), JSON.stringify([{ query: 1 }, { database: 'a', query: 'b', at: 1 }]));
    expect(loadRecentQueries(storage, 1)).toEqual([{ database: 'a', query: 'b', at: 1 }]);
    const full = {
      ...storage,
      getItem: storage.getItem,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(rememberQuery(full, 1, { database: 'a', query: 'c', at: 2 })[0]?.query).toBe('c');
    forgetRecentQueries(storage, 1);
    expect(loadRecentQueries(storage, 1)).toEqual([]);
  });
});
