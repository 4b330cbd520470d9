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
