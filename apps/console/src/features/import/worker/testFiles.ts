/** Files the worker tests read, generated (nothing is checked in). */

/** A CSV of `rows` rows whose `amount` is `N/A` in every hundredth row (1 %). */
export function csvWithBadNumbers(rows: number): string {
  const lines = ['id,amount,code'];
  for (let i = 1; i <= rows; i++) lines.push(`${i},${i % 100 === 0 ? 'N/A' : i * 3},00${i % 7}`);
  return `${lines.join('\n')}\n`;
}
