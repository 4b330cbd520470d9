import { FIGURES_TABLE } from '../../../data';
import { QueryRefused, type Token } from '../tokens';

/**
 * Refuses the service's figures table (`"_svc$tables"`, in every database's schema) by name, with DuckDB's
 * message (duckdb/sandbox.ts): a query reads only the database's own tables. No table of a customer is named so
 * (table names have no `$`), so the name is refused wherever it stands. Checked at issue (queryEngine.ts) and
 * again when the job runs (runQuery.ts).
 */
export function refuseServiceTables(tokens: Token[]): void {
  for (const t of tokens) {
    const quote = t.text[0] as string;
    const name =
      t.kind === 'word' ? t.text : t.kind === 'quoted' ? t.text.slice(1, -1).replaceAll(quote + quote, quote) : '';
    if (name.toLowerCase() === FIGURES_TABLE) {
      throw new QueryRefused(`${name} is a table of the service: queries read only the database's own tables.`);
    }
  }
}
