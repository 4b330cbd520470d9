import { describe, expect, it } from 'vitest';
import { chartData, MAX_SERIES } from './chartData';

const ROWS: unknown[][] = [
  ['shoes', 'web', 10],
  ['hats', 'app', 5],
  ['shoes', 'app', 2],
  ['hats', 'web', null],
  ['socks', 'web', '7'],
];

describe('chartData', () => {
  it('sums y by x in the order x first appears, one series without a series column', () => {
    const d = chartData(ROWS, { kind: 'bar', x: 0, y: 2, series: null, aggregate: 'sum' }, 'total');
    expect(d.series).toEqual([{ key: 's0', name: 'total' }]);
    expect(d.points).toEqual([
      { x: 'shoes', s0: 12 },
      { x: 'hats', s0: 5 },
      { x: 'socks', s0: 7 },
    ]);
    expect(d.note).toBeNull();
  });

  it('averages, counts rows, and splits by the series column, largest series first', () => {
    const avg = chartData(ROWS, { kind: 'line', x: 0, y: 2, series: null, aggregate: 'avg' }, 'total');
    expect(avg.points[0]).toEqual({ x: 'shoes', s0: 6 });
    const count = chartData(ROWS, { kind: 'bar', x: 0, y: null, series: null, aggregate: 'count' }, 'rows');
    expect(count.points.map((p) => p.s0)).toEqual([2, 2, 1]);
    const split = chartData(ROWS, { kind: 'bar', x: 0, y: 2, series: 1, aggregate: 'sum' }, 'total');
    expect(split.series).toEqual([
      { key: 's0', name: 'web' },
      { key: 's1', name: 'app' },
    ]);
    expect(split.points[0]).toEqual({ x: 'shoes', s0: 10, s1: 2 });
    expect(split.points[1]).toEqual({ x: 'hats', s1: 5 });
  });

  it('sorts numeric x and merges 100,000 rows into at most 500 ranges for a line, keeping the total', () => {
    const rows: unknown[][] = [];
    for (let i = 100_000; i > 0; i--) rows.push([i, `s${i % 3}`, 1]);
    const d = chartData(rows, { kind: 'line', x: 0, y: 2, series: null, aggregate: 'sum' }, 'n');
    expect(d.groups).toBe(100_000);
    expect(d.points.length).toBeLessThanOrEqual(500);
    expect(d.points[0]?.x).toBe('1 – 200');
    expect(d.points.reduce((sum, p) => sum + (p.s0 as number), 0)).toBe(100_000);
    expect(d.note).toContain('100000 x values are shown as 500 ranges');
  });

  it('keeps the largest series and folds the rest into Other', () => {
    const rows: unknown[][] = [];
    for (let s = 0; s < 12; s++) for (let k = 0; k <= s; k++) rows.push(['a', `series ${s}`, 1]);
    const d = chartData(rows, { kind: 'bar', x: 0, y: 2, series: 1, aggregate: 'sum' }, 'n');
    expect(d.series).toHaveLength(MAX_SERIES + 1);
    expect(d.series[0]?.name).toBe('series 11');
    expect(d.series[MAX_SERIES]?.name).toBe('Other');
    // Series 0..3 hold 1+2+3+4 rows.
    expect(d.points[0]?.[`s${MAX_SERIES}`]).toBe(10);
  });

  it('draws a pie of the largest slices with the rest as Other, ignoring the series column', () => {
    const rows: unknown[][] = [];
    for (let i = 0; i < 20; i++) rows.push([`c${i}`, 'x', i + 1]);
    const d = chartData(rows, { kind: 'pie', x: 0, y: 2, series: 1, aggregate: 'sum' }, 'n');
    expect(d.points).toHaveLength(12);
    expect(d.points[0]).toEqual({ x: 'c19', s0: 20 });
    // c0..c8 hold 1..9.
    expect(d.points[11]).toEqual({ x: 'Other', s0: 45 });
    expect(d.note).toContain('9 smallest of 20 slices');
  });
});
