import type { ColumnType, SourceValue } from './types';

// Whole numbers without a leading zero ("007" is a code, not a number: it stays text).
const LONG_TEXT = /^-?(0|[1-9]\d{0,17})$/;
const DOUBLE_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const isEmpty = (v: SourceValue) => v === null || v === undefined || v === '';

/** The narrowest type one value fits, or null for an empty value. */
export function typeOfValue(value: SourceValue): ColumnType | null {
  if (isEmpty(value)) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'long' : 'double';
  if (typeof value === 'string') {
    const v = value.trim();
    if (LONG_TEXT.test(v) && Number.isSafeInteger(Number(v))) return 'long';
    if (DOUBLE_TEXT.test(v) && !/^-?0\d/.test(v)) return 'double';
  }
  return 'string';
}

/** The type of a column from how many values are written as each type: long if all are whole, double if all are numbers, else string. */
export function typeFromCounts(written: Record<ColumnType, number>): ColumnType {
  if (written.string > 0) return 'string';
  if (written.double > 0) return 'double';
  return written.long > 0 ? 'long' : 'string';
}

/** The type of a column from its values (see `typeFromCounts`). */
export function inferColumnType(values: Iterable<SourceValue>): ColumnType {
  const written: Record<ColumnType, number> = { long: 0, double: 0, string: 0 };
  for (const value of values) {
    const t = typeOfValue(value);
    if (t !== null) written[t] += 1;
  }
  return typeFromCounts(written);
}

/** A value converted to a column type, or why it cannot be. Empty values become null. */
export type Converted = { ok: true; value: string | number | null } | { ok: false; reason: string };

/** A value for a message: quoted, shortened to 40 characters. */
export const showValue = (v: SourceValue) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
};

export function convertValue(value: SourceValue, type: ColumnType): Converted {
  if (isEmpty(value)) return { ok: true, value: null };
  if (type === 'string') {
    if (typeof value === 'string') return { ok: true, value };
    if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
    return { ok: true, value: JSON.stringify(value) };
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  const text = typeof value === 'string' ? value.trim() : '';
  const numeric = typeof value === 'number' || (DOUBLE_TEXT.test(text) && text !== '');
  if (type === 'long') {
    if (numeric && Number.isSafeInteger(n)) return { ok: true, value: n };
    return { ok: false, reason: `${showValue(value)} is not a whole number` };
  }
  if (numeric && Number.isFinite(n)) return { ok: true, value: n };
  return { ok: false, reason: `${showValue(value)} is not a number` };
}
