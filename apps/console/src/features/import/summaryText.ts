const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** "2 keys left out: a, b": the keys found in the files that the user chose not to import. */
export function keysLeftOutText(keys: string[]): string {
  return `${plural(keys.length, 'key', 'keys')} left out${keys.length > 0 ? `: ${keys.join(', ')}` : ''}`;
}

/** What the fixes for cells that will not convert did: rows skipped, cells set to null. */
export function fixesText(fixed: { skipped: number; nulled: number }): string {
  return `${plural(fixed.skipped, 'row', 'rows')} skipped, ${plural(fixed.nulled, 'cell', 'cells')} set to null`;
}

/**
 * The download of the rows left out, saying what it holds so it agrees with the summary: "Download the 400
 * rows left out (300 rejected, 100 skipped) as CSV", or "the first 1,000 of the 4,000 rows left out".
 */
export function leftOutDownloadText(summary: { rejected: number; skipped: number; kept: unknown[] }): string {
  const total = summary.rejected + summary.skipped;
  const which =
    total > summary.kept.length
      ? `the first ${count(summary.kept.length)} of the ${plural(total, 'row', 'rows')}`
      : `the ${plural(total, 'row', 'rows')}`;
  return `Download ${which} left out (${count(summary.rejected)} rejected, ${count(summary.skipped)} skipped) as CSV`;
}
