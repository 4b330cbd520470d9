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

interface Cell {
  sum: number;
  n: number;
}

interface Group {
  x: string | number;
  cells: Map<string, Cell>;
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

function add(cells: Map<string, Cell>, key: string, sum: number, n: number) {
  const cell = cells.get(key);
  if (cell) {
    cell.sum += sum;
    cell.n += n;
  } else cells.set(key, { sum, n });
}

function cellValue(cell: Cell, aggregate: Aggregate): number {
  if (aggregate === 'count') return cell.n;
  if (aggregate === 'avg') return cell.n === 0 ? 0 : cell.sum / cell.n;
  return cell.sum;
}

/** One pass: groups by x (first appearance order) and series, with each series' total for ranking. */
function groupRows(rows: readonly unknown[][], spec: ChartSpec) {
  const groups = new Map<string, Group>();
  const totals = new Map<string, number>();
  let numericX = true;
  for (const row of rows) {
    const rawX = row[spec.x];
    const xNumber = typeof rawX === 'number' && Number.isFinite(rawX) ? rawX : null;
    if (xNumber === null) numericX = false;
    const xKey = labelOf(rawX);
    let group = groups.get(xKey);
    if (!group) {
      group = { x: xNumber ?? xKey, cells: new Map() };
      groups.set(xKey, group);
    }
    const seriesKey = spec.series === null || spec.kind === 'pie' ? '' : labelOf(row[spec.series]);
    let sum = 0;
    if (spec.aggregate !== 'count' && spec.y !== null) {
      const y = numberOf(row[spec.y]);
      if (y === null) continue;
      sum = y;
    }
    add(group.cells, seriesKey, sum, 1);
    totals.set(seriesKey, (totals.get(seriesKey) ?? 0) + (spec.aggregate === 'count' ? 1 : Math.abs(sum)));
  }
  const list = [...groups.values()];
  if (numericX) list.sort((a, b) => (a.x as number) - (b.x as number));
  return { list, totals };
}

/** Consecutive groups merged so that at most `max` remain; a bucket is labelled by its first and last x. */
function bucket(list: Group[], max: number): Group[] {
  if (list.length <= max) return list;
  const size = Math.ceil(list.length / max);
  const out: Group[] = [];
  for (let i = 0; i < list.length; i += size) {
    const part = list.slice(i, i + size);
    const first = part[0] as Group;
    const last = part[part.length - 1] as Group;
    const cells = new Map<string, Cell>();
    for (const g of part) for (const [k, c] of g.cells) add(cells, k, c.sum, c.n);
    out.push({ x: part.length === 1 ? first.x : `${first.x} – ${last.x}`, cells });
  }
  return out;
}

/** Pie: the largest slices, the rest as one "Other" slice. */
function slices(list: Group[], aggregate: Aggregate): Group[] {
  const max = MAX_POINTS.pie;
  if (list.length <= max) return list;
  const ranked = [...list].sort(
    (a, b) =>
      cellValue(b.cells.get('') ?? { sum: 0, n: 0 }, aggregate) -
      cellValue(a.cells.get('') ?? { sum: 0, n: 0 }, aggregate),
  );
  const cells = new Map<string, Cell>();
  for (const g of ranked.slice(max - 1)) for (const [k, c] of g.cells) add(cells, k, c.sum, c.n);
  return [...ranked.slice(0, max - 1), { x: OTHER, cells }];
}

export function chartData(rows: readonly unknown[][], spec: ChartSpec, yName: string): ChartData {
  const { list, totals } = groupRows(rows, spec);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const kept = ranked.slice(0, MAX_SERIES);
  const keyOf = new Map<string, string>(kept.map((name, i) => [name, `s${i}`]));
  const otherKey = `s${kept.length}`;
  const series: ChartSeries[] = kept.map((name, i) => ({ key: `s${i}`, name: name === '' ? yName : name }));
  if (ranked.length > MAX_SERIES) series.push({ key: otherKey, name: OTHER });
  const shown = spec.kind === 'pie' ? slices(list, spec.aggregate) : bucket(list, MAX_POINTS[spec.kind]);
  const points = shown.map((g) => {
    const merged = new Map<string, Cell>();
    for (const [name, cell] of g.cells) add(merged, keyOf.get(name) ?? otherKey, cell.sum, cell.n);
    const point: Record<string, string | number> = { x: typeof g.x === 'number' ? g.x : String(g.x) };
    for (const [key, cell] of merged) point[key] = cellValue(cell, spec.aggregate);
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
