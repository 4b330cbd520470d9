/**
 * Turns rows (arrays in column order, as a job's result) into the few points a chart draws: rows are grouped
 * by the x column and, when one is picked, the series column; y is summed, averaged or rows are counted. Whatever
 * the number of rows, a chart gets at most `maxPoints` x values (consecutive groups merged into buckets) and
 * `MAX_SERIES` series (the smaller ones merged into "Other"), so 100,000 rows draw as fast as 100.
 * One pass over the rows, no sort of them: pure, for the result chart and the overview alike.
 */

export type ChartKind = 'bar' | 'line' | 'area' | 'pie';
export type Aggregate = 'sum' | 'avg' | 'count';

export interface ChartSpec {
  kind: ChartKind;
  /** Column indexes into each row. */
  x: number;
  /** null: count the rows. */
  y: number | null;
  series: number | null;
  aggregate: Aggregate;
}

export interface ChartSeries {
  /** The key of its value in each point (`s0`, `s1`, …): column values can be any text. */
  key: string;
  name: string;
}

export interface ChartData {
  /** `x` is the label; each series' key holds its value (absent where the group had none). */
  points: Record<string, string | number>[];
  series: ChartSeries[];
  /** Distinct x values before buckets and "Other" were made. */
  groups: number;
  /** Set when points or series were merged, saying how. */
  note: string | null;
}

export const MAX_SERIES = 8;
const MAX_POINTS: Record<ChartKind, number> = { bar: 100, line: 500, area: 500, pie: 12 };
const OTHER = 'Other';
const NULL_LABEL = '(null)';

/** A group's sums and row counts, indexed by series number (sparse). */
interface Group {
  x: string | number;
  sum: number[];
  n: number[];
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function labelOf(value: unknown): string {
  if (value === null || value === undefined) return NULL_LABEL;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cellValue(sum: number, n: number, aggregate: Aggregate): number {
  if (aggregate === 'count') return n;
  if (aggregate === 'avg') return n === 0 ? 0 : sum / n;
  return sum;
}

/** Adds `from`'s cells into `into`, series renumbered by `to` (identity when absent). */
function addInto(into: Group, from: Group, to?: number[]) {
  from.n.forEach((n, s) => {
    const t = to ? (to[s] as number) : s;
    into.sum[t] = (into.sum[t] ?? 0) + (from.sum[s] ?? 0);
    into.n[t] = (into.n[t] ?? 0) + n;
  });
}

/** One pass: groups by x (first appearance order, or by number when every x is one) and series. */
function groupRows(rows: readonly unknown[][], spec: ChartSpec) {
  const groupOf = new Map<unknown, Group>();
  const list: Group[] = [];
  const seriesOf = new Map<string, number>();
  const names: string[] = [];
  const totals: number[] = [];
  const bySeries = spec.series !== null && spec.kind !== 'pie';
  let numericX = true;
  for (const row of rows) {
    const rawX = row[spec.x];
    const isNumber = typeof rawX === 'number' && Number.isFinite(rawX);
    if (!isNumber) numericX = false;
    // Numbers are their own keys: no text made per row.
    const xKey = isNumber ? rawX : labelOf(rawX);
    let group = groupOf.get(xKey);
    if (!group) {
      group = { x: xKey as string | number, sum: [], n: [] };
      groupOf.set(xKey, group);
      list.push(group);
    }
    let y = 0;
    if (spec.aggregate !== 'count' && spec.y !== null) {
      const value = numberOf(row[spec.y]);
      if (value === null) continue;
      y = value;
    }
    let s = 0;
    if (bySeries) {
      const name = labelOf(row[spec.series as number]);
      const known = seriesOf.get(name);
      if (known === undefined) {
        s = names.length;
        seriesOf.set(name, s);
        names.push(name);
        totals.push(0);
      } else s = known;
    } else if (names.length === 0) {
      names.push('');
      totals.push(0);
    }
    group.sum[s] = (group.sum[s] ?? 0) + y;
    group.n[s] = (group.n[s] ?? 0) + 1;
    totals[s] = (totals[s] as number) + (spec.aggregate === 'count' ? 1 : Math.abs(y));
  }
  if (numericX) list.sort((a, b) => (a.x as number) - (b.x as number));
  return { list, names, totals };
}

/** Consecutive groups merged so that at most `max` remain; a bucket is labelled by its first and last x. */
function bucket(list: Group[], max: number): Group[] {
  if (list.length <= max) return list;
  const size = Math.ceil(list.length / max);
  const out: Group[] = [];
  for (let i = 0; i < list.length; i += size) {
    const end = Math.min(i + size, list.length);
    const first = list[i] as Group;
    const last = list[end - 1] as Group;
    const merged: Group = { x: end - i === 1 ? first.x : `${first.x} – ${last.x}`, sum: [], n: [] };
    for (let g = i; g < end; g++) addInto(merged, list[g] as Group);
    out.push(merged);
  }
  return out;
}

/** Pie: the largest slices, the rest as one "Other" slice. */
function slices(list: Group[], aggregate: Aggregate): Group[] {
  const max = MAX_POINTS.pie;
  if (list.length <= max) return list;
  const value = (g: Group) => cellValue(g.sum[0] ?? 0, g.n[0] ?? 0, aggregate);
  const ranked = [...list].sort((a, b) => value(b) - value(a));
  const other: Group = { x: OTHER, sum: [], n: [] };
  for (const g of ranked.slice(max - 1)) addInto(other, g);
  return [...ranked.slice(0, max - 1), other];
}

export function chartData(rows: readonly unknown[][], spec: ChartSpec, yName: string): ChartData {
  const { list, names, totals } = groupRows(rows, spec);
  const ranked = names.map((_, s) => s).sort((a, b) => (totals[b] as number) - (totals[a] as number));
  // Series number → its place among the kept series, the rest to "Other" (place MAX_SERIES).
  const place: number[] = [];
  ranked.forEach((s, i) => {
    place[s] = Math.min(i, MAX_SERIES);
  });
  const series: ChartSeries[] = ranked
    .slice(0, MAX_SERIES)
    .map((s, i) => ({ key: `s${i}`, name: names[s] === '' ? yName : (names[s] as string) }));
  if (ranked.length > MAX_SERIES) series.push({ key: `s${MAX_SERIES}`, name: OTHER });
  const shown = spec.kind === 'pie' ? slices(list, spec.aggregate) : bucket(list, MAX_POINTS[spec.kind]);
  const points = shown.map((g) => {
    const merged: Group = { x: g.x, sum: [], n: [] };
    addInto(merged, g, place);
    const point: Record<string, string | number> = { x: typeof g.x === 'number' ? g.x : String(g.x) };
    merged.n.forEach((n, k) => {
      point[`s${k}`] = cellValue(merged.sum[k] ?? 0, n, spec.aggregate);
    });
    return point;
  });
  const notes: string[] = [];
  if (shown.length < list.length) {
    notes.push(
      spec.kind === 'pie'
        ? `The ${list.length - MAX_POINTS.pie + 1} smallest of ${list.length} slices are shown as "${OTHER}".`
        : `${list.length} x values are shown as ${shown.length} ranges of consecutive values.`,
    );
  }
  if (ranked.length > MAX_SERIES) {
    notes.push(`The ${MAX_SERIES} largest of ${ranked.length} series are shown; the rest as "${OTHER}".`);
  }
  return { points, series, groups: list.length, note: notes.length > 0 ? notes.join(' ') : null };
}
