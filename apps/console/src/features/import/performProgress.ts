/** How far the server's perform job has got, as it writes it to the job's `debug.cmdout`. */
export interface PerformProgress {
  partsDone: number;
  partsTotal: number;
  records: number;
}

// One line per report: `perform progress: 3/10 parts, 300000 records` (apps/server bulk-import performJob.ts).
const LINE = /^perform progress: (\d+)\/(\d+) parts, (\d+) records$/gm;

/** The newest progress report in a perform job's output, or null before the first one. */
export function lastPerformProgress(cmdout: string | null | undefined): PerformProgress | null {
  if (!cmdout) return null;
  let last: RegExpExecArray | null = null;
  for (const m of cmdout.matchAll(LINE)) last = m;
  if (!last) return null;
  return { partsDone: Number(last[1]), partsTotal: Number(last[2]), records: Number(last[3]) };
}

/** A duration as people read it: `0.4 s`, `12 s`, `3 min 05 s`. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  const whole = Math.floor(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}
