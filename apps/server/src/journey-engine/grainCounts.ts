import { type ColumnKind, type Executor, insertRowsInBatches } from '../platform/storage';
import { dayOf } from './entries';

/** A table of counts per instant and its twin per day (figureCounts.ts, abCounts.ts). */
export interface CountTables {
  instants: string;
  days: string;
  /** The columns after account_id and journey_id that name a row, before its time and mark. */
  keys: readonly string[];
  /** The time and the mark (a previous time or a goal's) columns, per instant and per day. */
  instantColumns: readonly [string, string];
  dayColumns: readonly [string, string];
}

/** A time of the counts in days: the marks below zero (never, not yet, unknown) stay as they are. */
const dayOrMark = (t: number) => (t < 0 ? t : dayOf(t));

/**
 * Adds counts per instant to a journey's table of them, and their sums per day to its twin. `counts` are keyed by
 * the key columns' values, the instant and the mark, joined by NUL. Call inside the transaction that writes the
 * events.
 */
export async function addPerInstantAndDay(
  ex: Executor,
  tables: CountTables,
  accountId: number,
  journeyId: number,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  const days = new Map<string, number>();
  for (const [row, n] of counts) {
    const fields = row.split('\u0000');
    const [at, mark] = fields.splice(-2).map(Number) as [number, number];
    const day = [...fields, dayOf(at), dayOrMark(mark)].join('\u0000');
    days.set(day, (days.get(day) ?? 0) + n);
  }
  const kinds: ColumnKind[] = [
    'integer',
    'integer',
    ...tables.keys.map((): ColumnKind => 'text'),
    'integer',
    'integer',
    'integer',
  ];
  for (const [table, [time, mark], grain] of [
    [tables.instants, tables.instantColumns, counts],
    [tables.days, tables.dayColumns, days],
  ] as const) {
    const rows = [...grain]
      .filter(([, n]) => n !== 0)
      .map(([row, n]) => {
        const fields = row.split('\u0000');
        const [t, m] = fields.splice(-2).map(Number);
        return [accountId, journeyId, ...fields, t, m, n];
      });
    const keys = tables.keys.join(', ');
    await insertRowsInBatches(
      ex,
      `INSERT INTO ${table} (account_id, journey_id, ${keys}, ${time}, ${mark}, n)`,
      kinds,
      rows,
      `ON CONFLICT (account_id, journey_id, ${time}, ${keys}, ${mark}) DO UPDATE SET n = ${table}.n + excluded.n`,
    );
  }
}
