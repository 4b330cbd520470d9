import type { ABTestStep } from '@svc/journey';
import { evenSplit } from '@svc/journey';

/** Buckets 0..9999: a percentage point is 100 buckets, so splits are exact to 0.01 %. */
export const BUCKETS = 10_000;

/**
 * 32-bit FNV-1a over the UTF-16 code units of `text`, followed by the MurmurHash3 finaliser so that
 * inputs differing in one character spread over the whole range. Pure and identical on every platform.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The bucket of a profile in one A/B test: hash of the unique-ID value, the journey id and the test's
 * step id, separated by NUL, modulo 10,000. The journey and step take part so that two tests never
 * split the same profiles the same way.
 */
export function abBucket(uniqueValue: string, journeyId: string, stepId: string): number {
  return hash32(`${uniqueValue}\u0000${journeyId}\u0000${stepId}`) % BUCKETS;
}

/** The percentages a test really uses: an even split unless customized. */
export function effectivePercentages(step: ABTestStep): number[] {
  if (!step.customizedSplit) return evenSplit(step.variants.length);
  return step.variants.map((v) => (Number.isFinite(v.percentage) && v.percentage > 0 ? v.percentage : 0));
}

/**
 * Index of the variant a bucket falls in: variants take consecutive ranges in their order (the control,
 * variants[0], first). Percentages that do not add up to 100 are scaled to their sum; when all are 0 the
 * control gets everyone.
 */
export function variantIndexForBucket(percentages: ReadonlyArray<number>, bucket: number): number {
  const total = percentages.reduce((sum, p) => sum + p, 0);
  if (total <= 0) return 0;
  // Compared as bucket / BUCKETS < upper / total, multiplied out so whole percentages stay exact.
  const point = bucket * total;
  let upper = 0;
  for (let i = 0; i < percentages.length; i++) {
    upper += percentages[i] ?? 0;
    if (point < upper * BUCKETS) return i;
  }
  return percentages.length - 1;
}

/** The value an A/B test hashes for a profile: its `uniqueId` column, or the profile key when empty. */
export function uniqueValueOf(columns: Readonly<Record<string, unknown>> | undefined, column: string, key: string) {
  const value = column && columns ? columns[column] : undefined;
  if (value === null || value === undefined || value === '') return key;
  return String(value);
}
