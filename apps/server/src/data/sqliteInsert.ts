import { type DataFile, statement } from './dataFiles';
import { q } from './dataTables';

/** The most parameters one statement may bind (SQLITE_MAX_VARIABLE_NUMBER of the bundled SQLite). */
const MAX_PARAMS = 32_766;
/** Rows per INSERT: past about 50 a longer statement saves nothing more (docs/benchmarks.md). */
const MAX_ROWS = 64;
/** Statement sizes the rows left over at the end go in. */
const TAIL_SIZES = [16, 4, 1];

/**
 * Inserts rows into one table of a data file with multi-row INSERTs: a statement binds up to 64 rows, so the
 * per-statement cost (a step, a reset, a call from JavaScript) is paid once per 64 rows rather than per row,
 * which inserts about 1.7 times as fast as one row per statement. The caller writes each row's values into
 * `values` from `at` (`time` first, then `columns` in order), then calls `push`; `end` writes what is left.
 */
export class RowInserter {
  private readonly width: number;
  private readonly perStatement: number;
  /** The values of the rows not yet written. */
  readonly values: unknown[];
  private rows = 0;
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly f: DataFile,
    private readonly table: string,
    private readonly columns: string[],
  ) {
    this.width = columns.length + 1;
    this.perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / this.width)));
    this.values = new Array(this.perStatement * this.width);
  }

  /** Where the next row's values start in `values`. */
  get at(): number {
    return this.rows * this.width;
  }

  /** The row at `at` is written in `values`. */
  push(): void {
    if (++this.rows < this.perStatement) return;
    statement(this.f, this.text(this.perStatement)).run(this.values);
    this.rows = 0;
  }

  /** Copies one whole row (`time` first) and pushes it. */
  add(row: readonly unknown[]): void {
    const at = this.at;
    for (let i = 0; i < this.width; i++) this.values[at + i] = row[i];
    this.push();
  }

  /** Writes the rows still waiting. */
  end(): void {
    let from = 0;
    for (const size of TAIL_SIZES) {
      if (size >= this.perStatement) continue;
      for (; this.rows - from >= size; from += size) {
        const args = this.values.slice(from * this.width, (from + size) * this.width);
        statement(this.f, this.text(size)).run(args);
      }
    }
    this.rows = 0;
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (!text) {
      const row = `(?${', ?'.repeat(this.width - 1)})`;
      const list = ['time', ...this.columns].map(q).join(', ');
      text = `INSERT INTO ${q(this.table)} (${list}) VALUES ${Array(rows).fill(row).join(', ')}`;
      this.texts.set(rows, text);
    }
    return text;
  }
}
