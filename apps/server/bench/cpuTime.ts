import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/**
 * CPU time spent, in microseconds, read from Linux's `/proc` (null elsewhere). On a machine shared with other
 * work, wall-clock rates follow the neighbours; the CPU a piece of work takes does not, so the benches print both.
 */

/** utime, stime, cutime and cstime of a process (the last two: its children that ended), in clock ticks. */
function times(pid: number): { own: number; children: number; parent: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      parent: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      children: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

// Linux counts in ticks of 10 ms (USER_HZ = 100).
const TICK_MICROS = 10_000;

/** This process's CPU, all threads. */
export const processCpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * A reader of the CPU the PostgreSQL server behind `pool` has used so far: the postmaster, its live processes
 * and those that ended. Null when the server is not a local process this one can read (another machine, not
 * Linux, or a role that may not see `data_directory`).
 */
export async function postgresCpu(pool: pg.Pool): Promise<(() => number) | null> {
  try {
    const { rows } = await pool.query<{ dir: string }>('SELECT current_setting($1) AS dir', ['data_directory']);
    const postmaster = Number(readFileSync(join(rows[0]?.dir ?? '', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!times(postmaster)) return null;
    return () => {
      const main = times(postmaster);
      let ticks = main ? main.own + main.children : 0;
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const t = times(Number(entry));
        if (t?.parent === postmaster) ticks += t.own;
      }
      return ticks * TICK_MICROS;
    };
  } catch {
    return null;
  }
}
