import { convertValue, showValue, typeFromCounts, typeOfValue } from './infer';
import type { ColumnType, SourceRow } from './types';

/** A cell that will not convert to a type: where it is and what it holds (shortened). */
export interface BadCell {
  file: string;
  row: number;
  value: string;
}

/** What the whole-file scan learned about one key or column: counters only, never the rows. */
export interface FieldProfile {
  name: string;
  /** Where the key was first seen. */
  first: { file: string; row: number };
  /** Rows with a value (not missing, null or empty). */
  filled: number;
  /** Filled cells that convert to each numeric type (every cell converts to string). */
  fits: { long: number; double: number };
  /** Filled cells by the narrowest type they are written as (`007` is written as a string). */
  written: Record<ColumnType, number>;
  /** The first few cells that do not convert, per numeric type. */
  bad: { long: BadCell[]; double: BadCell[] };
}

export interface FileProfile {
  /** Rows read (records that could not be read at all are not rows). */
  rows: number;
  /** Every key or column, in the order first seen. */
  fields: FieldProfile[];
  /** Distinct keys beyond the limit: counted, not profiled. */
  moreKeys: number;
  /** Records that could not be read as rows (bad JSON lines): they will be rejected. */
  unreadable: number;
}

/** Examples kept per field and type. */
const BAD_EXAMPLES = 5;
/** Distinct keys profiled per file: JSON with keys made of ids would otherwise grow without bound. */
const MAX_FIELDS = 2000;

const emptyField = (name: string, file: string, row: number): FieldProfile => ({
  name,
  first: { file, row },
  filled: 0,
  fits: { long: 0, double: 0 },
  written: { long: 0, double: 0, string: 0 },
  bad: { long: [], double: [] },
});

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** Counts, row by row, what every key of a file holds and which cells fit which type. */
export class Profiler {
  private readonly fields = new Map<string, FieldProfile>();
  private readonly extra = new Set<string>();
  private rows = 0;
  private unreadable = 0;

  constructor(private readonly file: string) {}

  add(row: SourceRow, n: number): void {
    this.rows += 1;
    for (const key in row) {
      let field = this.fields.get(key);
      if (!field) {
        if (this.fields.size >= MAX_FIELDS) {
          if (this.extra.size < MAX_FIELDS) this.extra.add(key);
          continue;
        }
        field = emptyField(key, this.file, n);
        this.fields.set(key, field);
      }
      const value = row[key];
      if (isEmpty(value)) continue;
      field.filled += 1;
      const written = typeOfValue(value) ?? 'string';
      field.written[written] += 1;
      if (written === 'long') {
        field.fits.long += 1;
        field.fits.double += 1;
        continue;
      }
      this.check(field, value, n, 'long');
      if (written === 'double') field.fits.double += 1;
      else this.check(field, value, n, 'double');
    }
  }

  /** A record that could not be read as a row. */
  problem(): void {
    this.unreadable += 1;
  }

  private check(field: FieldProfile, value: unknown, n: number, type: 'long' | 'double') {
    if (convertValue(value, type).ok) field.fits[type] += 1;
    else if (field.bad[type].length < BAD_EXAMPLES)
      field.bad[type].push({ file: this.file, row: n, value: showValue(value) });
  }

  result(): FileProfile {
    return {
      rows: this.rows,
      fields: [...this.fields.values()],
      moreKeys: this.extra.size,
      unreadable: this.unreadable,
    };
  }
}

/** The profiles of several files as one: fields by name in first-seen order, counts summed. */
export function mergeProfiles(profiles: FileProfile[]): FileProfile {
  const fields = new Map<string, FieldProfile>();
  let rows = 0;
  let moreKeys = 0;
  let unreadable = 0;
  for (const p of profiles) {
    rows += p.rows;
    moreKeys += p.moreKeys;
    unreadable += p.unreadable;
    for (const f of p.fields) {
      const into = fields.get(f.name);
      if (!into) {
        fields.set(f.name, structuredClone(f));
        continue;
      }
      into.filled += f.filled;
      into.fits.long += f.fits.long;
      into.fits.double += f.fits.double;
      for (const t of ['long', 'double', 'string'] as const) into.written[t] += f.written[t];
      for (const t of ['long', 'double'] as const) into.bad[t] = [...into.bad[t], ...f.bad[t]].slice(0, BAD_EXAMPLES);
    }
  }
  return { rows, fields: [...fields.values()], moreKeys, unreadable };
}

/**
 * The narrowest type that every filled cell converts to: for a column whose cells do not all convert to the
 * chosen type, the type to change to instead.
 */
export function narrowestFitting(f: FieldProfile): ColumnType {
  if (badCount(f, 'long') === 0) return 'long';
  return badCount(f, 'double') === 0 ? 'double' : 'string';
}

/** The narrowest type every filled cell is written as: long, double, else string. */
export const inferredType = (f: FieldProfile): ColumnType => typeFromCounts(f.written);

/** Filled cells of a field that will not convert to a type. */
export const badCount = (f: FieldProfile, type: ColumnType): number =>
  type === 'string' ? 0 : f.filled - f.fits[type];

/** The share (0 to 1) of filled cells that convert to a type; 1 when the field is never filled. */
export const fitShare = (f: FieldProfile, type: ColumnType): number =>
  f.filled === 0 || type === 'string' ? 1 : f.fits[type] / f.filled;

/** Share of written numbers from which a numeric type is offered for a string column. */
const OFFER_SHARE = 0.9;

/**
 * For a column inferred as string whose cells are mostly numbers (a few `N/A`): the numeric type to offer,
 * the narrowest that most cells fit. Null when there is nothing to offer.
 */
export function numericOffer(f: FieldProfile): ColumnType | null {
  if (inferredType(f) !== 'string' || f.filled === 0) return null;
  const numbers = f.written.long + f.written.double;
  if (numbers / f.filled < OFFER_SHARE) return null;
  return f.written.double === 0 && fitShare(f, 'long') >= OFFER_SHARE ? 'long' : 'double';
}
