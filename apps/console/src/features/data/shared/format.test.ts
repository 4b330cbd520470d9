import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatSeconds,
  resultColumns,
  tableColumns,
  unixToIso,
  v3TimeToIso,
  v3TimeToMs,
} from './format';

describe('formatBytes', () => {
  it('uses the largest 1024-based unit, with a decimal only below 10', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(23 * 1024 * 1024)).toBe('23 MB');
    expect(formatBytes(null)).toBe('—');
  });
});

describe('formatCount and formatDuration', () => {
  it('groups thousands and shows a dash for unknown figures', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('—');
  });

  it('reads like a stopwatch', () => {
    expect(formatDuration(0.43)).toBe('0.4 s');
    expect(formatDuration(12)).toBe('12 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(7440)).toBe('2 h 04 min');
    expect(formatDuration(null)).toBe('—');
    expect(formatSeconds(0)).toBe('under 1 s');
    expect(formatSeconds(65)).toBe('1 min 05 s');
  });
});

describe('wire times', () => {
  it('turns both /v3 forms into ISO 8601, and empty or odd values into null', () => {
    expect(v3TimeToIso('2026-11-22 09:30:05 UTC')).toBe('2026-11-22T09:30:05Z');
    expect(v3TimeToIso('2026-11-22 18:30:05 +0900')).toBe('2026-11-22T18:30:05+09:00');
    expect(v3TimeToMs('2026-11-22 18:30:05 +0900')).toBe(Date.UTC(2026, 10, 22, 9, 30, 5));
    expect(v3TimeToIso('')).toBeNull();
    expect(v3TimeToIso('yesterday')).toBeNull();
    expect(unixToIso(1700000000)).toBe('2023-11-14T22:13:20.000Z');
    expect(unixToIso(null)).toBeNull();
  });
});

describe('schemas', () => {
  it('lists time first, then the table schema with aliases', () => {
    expect(tableColumns('[["path","string"],["ms","long","duration"]]')).toEqual([
      { name: 'time', type: 'long' },
      { name: 'path', type: 'string' },
      { name: 'ms', type: 'long', alias: 'duration' },
    ]);
    expect(tableColumns('[]')).toEqual([{ name: 'time', type: 'long' }]);
    expect(tableColumns('not json')).toEqual([{ name: 'time', type: 'long' }]);
  });

  it('reads a result schema, naming unnamed columns', () => {
    expect(resultColumns('[["path","varchar"],["n","bigint"]]')).toEqual([
      { name: 'path', type: 'varchar' },
      { name: 'n', type: 'bigint' },
    ]);
    expect(resultColumns(null)).toEqual([]);
    expect(resultColumns('{')).toEqual([]);
  });
});
