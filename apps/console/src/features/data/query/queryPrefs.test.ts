import { describe, expect, it } from 'vitest';
import { databaseToOpen, loadQueryPrefs, queryPrefsKey, saveQueryPrefs } from './queryPrefs';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => items.delete(k),
    setItem: (k, v) => items.set(k, v),
  };
}

describe('query page preferences', () => {
  it('keeps the database and engine per user, and starts with presto and no database', () => {
    const s = memoryStorage();
    expect(loadQueryPrefs(s, 1)).toEqual({ database: null, engine: 'presto' });
    saveQueryPrefs(s, 1, { database: 'shop' });
    saveQueryPrefs(s, 1, { engine: 'hive' });
    expect(loadQueryPrefs(s, 1)).toEqual({ database: 'shop', engine: 'hive' });
    expect(loadQueryPrefs(s, 2)).toEqual({ database: null, engine: 'presto' });
  });

  it('ignores what it cannot read', () => {
    const s = memoryStorage();
    s.setItem(queryPrefsKey(1), '{not json');
    expect(loadQueryPrefs(s, 1)).toEqual({ database: null, engine: 'presto' });
    s.setItem(queryPrefsKey(1), JSON.stringify({ database: 7, engine: 'pig' }));
    expect(loadQueryPrefs(s, 1)).toEqual({ database: null, engine: 'presto' });
  });

  it('opens the named database, else the last one while it exists, else the first', () => {
    expect(databaseToOpen('a', 'b', ['a', 'b'])).toBe('a');
    expect(databaseToOpen(null, 'b', ['a', 'b'])).toBe('b');
    expect(databaseToOpen(null, 'gone', ['a', 'b'])).toBe('a');
    expect(databaseToOpen(null, null, [])).toBeNull();
  });
});
