/**
 * The table a query reads first (after FROM, with an optional `db.` qualifier and quotes dropped),
 * lowercased as table names are. The editor completes that table's columns without a qualifier.
 */
export function queriedTable(sql: string): string | null {
  const m = /\bfrom\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(sql);
  return m?.[1] ? m[1].toLowerCase() : null;
}
