import { describe, expect, it } from 'vitest';
import { tokenize } from '../tokens';
import { refuseServiceTables } from './serviceTables';

const refusal = (sql: string) => {
  try {
    refuseServiceTables(tokenize(sql));
  } catch (e) {
    return (e as Error).message;
  }
  return null;
};

describe('refuseServiceTables', () => {
  it("refuses the figures table by name, as written, with DuckDB's message", () => {
    expect(refusal('SELECT * FROM "_svc$tables"')).toBe(
      "_svc$tables is a table of the service: queries read only the database's own tables.",
    );
    expect(refusal('SELECT name FROM web.`_SVC$Tables`')).toMatch(/^_SVC\$Tables is a table of the service/);
    expect(refusal('SELECT 1 FROM t JOIN _svc$tables f ON true')).toMatch(/^_svc\$tables is a table of the service/);
  });

  it('leaves text, comments and other names alone', () => {
    expect(refusal("SELECT '_svc$tables' AS a /* _svc$tables */ FROM t")).toBeNull();
    expect(refusal('SELECT "_svc$tables2", svc$tables FROM t')).toBeNull();
  });
});
