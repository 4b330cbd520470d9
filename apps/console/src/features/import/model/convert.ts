import { convertValue } from './infer';
import { convertTime, type TimeSettings } from './time';
import type { ColumnPlan, SourceRow, TimePlan } from './types';

/**
 * A row ready to encode (`time` in Unix seconds plus the kept columns, `nulled` cells set to null by the
 * user's fix), or why it is not imported: `skipped` when a cell did not convert and the fix says "skip the
 * row", otherwise rejected (a time that cannot be read).
 */
export type RowResult =
  | { ok: true; record: Record<string, unknown>; nulled: number }
  | { ok: false; reason: string; skipped: boolean };

export type RowConverter = (row: SourceRow) => RowResult;

/**
 * Builds the function that turns a source row into a record: the time from its column (in its form and
 * zone) or the import time, each kept column renamed and converted to its type. The time column is
 * consumed into `time` and not stored again.
 */
export function rowConverter(columns: ColumnPlan[], time: TimePlan, importTime: number): RowConverter {
  const timeColumn = time.mode === 'column' ? time.column : null;
  const kept = columns.filter((c) => !c.skip && c.source !== timeColumn);
  const settings: TimeSettings | null =
    time.mode === 'column' ? { form: time.form, format: time.format, timeZone: time.timeZone } : null;
  return (row) => {
    let t = importTime;
    if (timeColumn !== null && settings !== null) {
      const converted = convertTime(row[timeColumn], settings);
      if (!converted.ok) return { ok: false, reason: `time (${timeColumn}): ${converted.reason}`, skipped: false };
      t = converted.time;
    }
    const record: Record<string, unknown> = { time: t };
    let nulled = 0;
    for (const c of kept) {
      const v = convertValue(row[c.source], c.type);
      if (v.ok) record[c.name] = v.value;
      else if (c.onInvalid === 'null') {
        record[c.name] = null;
        nulled += 1;
      } else return { ok: false, reason: `${c.name}: ${v.reason}`, skipped: true };
    }
    return { ok: true, record, nulled };
  };
}

/** Problems of a column plan that stop the import: duplicate or invalid names. */
export function planProblems(columns: ColumnPlan[], time: TimePlan, nameProblem: (n: string) => string | null) {
  const problems: string[] = [];
  const timeColumn = time.mode === 'column' ? time.column : null;
  const seen = new Set<string>();
  for (const c of columns) {
    if (c.skip || c.source === timeColumn) continue;
    const problem = nameProblem(c.name);
    if (problem) problems.push(`Column "${c.name}": ${problem}`);
    if (seen.has(c.name)) problems.push(`Two columns are named "${c.name}": rename one or skip it.`);
    seen.add(c.name);
  }
  return problems;
}
