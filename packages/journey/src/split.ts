/**
 * Percentages for an even split over `count` variants: whole numbers that sum to 100. Each gets
 * floor(100 / count); the remainder (100 mod count) goes one point each to the first variants, so the
 * control (always first) is rounded up first: evenSplit(3) = [34, 33, 33].
 */
export function evenSplit(count: number): number[] {
  if (!Number.isInteger(count) || count < 1) return [];
  const base = Math.floor(100 / count);
  const remainder = 100 - base * count;
  return Array.from({ length: count }, (_, i) => base + (i < remainder ? 1 : 0));
}
