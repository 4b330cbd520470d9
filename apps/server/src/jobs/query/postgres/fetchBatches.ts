import type { Decode } from './resultValues';

/**
 * How many rows each FETCH of a query's cursor asks for, so a batch holds about `batchBytes` whatever the rows'
 * width: the driver holds a whole batch in memory, and 10,000 rows of 100 KB each are a gigabyte. The first
 * FETCH asks for a few rows; later ones for as many as fit the budget at the widest row seen so far (so the
 * budget holds unless rows grow wider than any before them, by at most the growth of one batch).
 */

const FIRST_BATCH = 16;
const DEFAULT_BATCH_ROWS = 10_000;
const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;
/** What a value costs besides its text (pointers, array slots), so a batch of NULLs stays bounded too. */
const CELL_OVERHEAD = 16;

export class BatchSizing {
  private readonly maxRows: number;
  private readonly budget: number;
  private widest = 0;
  private last = 0;

  constructor(options: { batchRows?: number; batchBytes?: number; maxRows: number }) {
    this.maxRows = Math.max(1, Math.min(options.batchRows ?? DEFAULT_BATCH_ROWS, options.maxRows + 1));
    this.budget = Math.max(1, options.batchBytes ?? DEFAULT_BATCH_BYTES);
  }

  /** Rows for the next FETCH. */
  next(): number {
    const fit = this.widest === 0 ? FIRST_BATCH : Math.floor(this.budget / this.widest);
    // Grows at most eightfold per batch, so rows much wider than the first ones are met a few at a time.
    const grown = this.last === 0 ? fit : Math.min(fit, this.last * 8);
    this.last = Math.max(1, Math.min(grown, this.maxRows));
    return this.last;
  }

  /** Records a fetched row's size. */
  saw(row: (string | null)[]): void {
    let bytes = 0;
    for (const v of row) bytes += CELL_OVERHEAD + (v === null ? 0 : v.length);
    if (bytes > this.widest) this.widest = bytes;
  }
}

/** A batch's rows decoded by their columns' decoders, each row's size recorded. */
export function decodeRows(rows: (string | null)[][], columns: { decode: Decode }[], sizing: BatchSizing): unknown[][] {
  return rows.map((row) => {
    sizing.saw(row);
    return row.map((v, i) => (v === null ? null : (columns[i] as { decode: Decode }).decode(v)));
  });
}
