/**
 * The column name the server gives a key (lowercase letters, digits and underscores, not starting with a
 * digit): shown up front so the names in the wizard are the names in the table.
 */
export function columnNameFor(key: string): string {
  let name = key
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
  if (name === '') name = 'column';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return name.slice(0, 128);
}

const COLUMN_RULE = /^[a-z_][a-z0-9_]{0,127}$/;
const RESERVED = new Set(['time', 'rowid', 'oid', '_rowid_']);

/** Why a column name cannot be used, or null when it can. */
export function columnNameProblem(name: string): string | null {
  if (!COLUMN_RULE.test(name)) {
    return 'Use lowercase letters, digits and underscores, not starting with a digit (at most 128).';
  }
  if (RESERVED.has(name)) return `"${name}" is reserved: choose another name.`;
  return null;
}
