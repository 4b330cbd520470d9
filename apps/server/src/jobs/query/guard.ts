import { QueryRefused, type Token, tokenize } from './dialect';

/**
 * What a query job may run: exactly one statement that only reads, checked on the text before any engine sees
 * it, so the message names what is wrong. Each engine checks again in its own way (DuckDB: the sandbox's look at
 * the parse tree, duckdb/sandbox.ts; PostgreSQL: a read-only transaction as the schema's read role).
 */

const WRITE_WORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

const FIRST_WORD_MESSAGES: Record<string, string> = {
  ATTACH: 'ATTACH is not allowed: a query reads only the database it was issued on.',
  DETACH: 'DETACH is not allowed: a query reads only the database it was issued on.',
  PRAGMA: 'PRAGMA is not allowed: queries cannot read or change connection settings.',
  BEGIN: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
  COMMIT: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
  END: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
  ROLLBACK: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
  SAVEPOINT: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
  RELEASE: 'Transactions (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) are not allowed: a query is one read-only statement.',
};

const writeMessage = (word: string) =>
  `Queries may only read data: ${word} statements are refused. Load data with bulk import or the ingestion APIs.`;

function refuse(message: string): never {
  throw new QueryRefused(message);
}

/** Checks the text: one statement, starting with SELECT, WITH or VALUES, naming nothing that escapes. */
export function checkQueryText(sql: string): void {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  while (tokens.length > 0 && (tokens[tokens.length - 1] as Token).text === ';') tokens.pop();
  if (tokens.length === 0) refuse('The query is empty: send one SELECT statement.');
  const statements = tokens.filter((t) => t.kind === 'punct' && t.text === ';').length + 1;
  if (statements > 1) refuse(`Send exactly one statement: this query has ${statements}, separated by ";".`);

  for (const t of tokens) {
    if (t.kind !== 'word') continue;
    const upper = t.text.toUpperCase();
    if (upper === 'ATTACH' || upper === 'DETACH') refuse(FIRST_WORD_MESSAGES[upper] as string);
    if (upper === 'PRAGMA' || upper.startsWith('PRAGMA_')) refuse(FIRST_WORD_MESSAGES.PRAGMA as string);
    if (upper === 'LOAD_EXTENSION') refuse('load_extension is not allowed in queries.');
    if (upper === 'VACUUM') refuse('VACUUM is not allowed: queries cannot change the database file.');
  }

  const first = (tokens[0] as Token).text.toUpperCase();
  if (FIRST_WORD_MESSAGES[first]) refuse(FIRST_WORD_MESSAGES[first] as string);
  if (
    WRITE_WORDS.has(first) ||
    ['CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'MERGE', 'REINDEX', 'ANALYZE'].includes(first)
  ) {
    refuse(writeMessage(first));
  }
  if (!['SELECT', 'WITH', 'VALUES'].includes(first)) {
    refuse(
      `A query must be one SELECT statement (optionally starting with WITH); "${first.slice(0, 40)}" is not accepted.`,
    );
  }
  // A WITH clause can lead into a write; at the top level, a write keyword (REPLACE is also a function) shows it.
  let depth = 0;
  tokens.forEach((t, i) => {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && WRITE_WORDS.has(t.text.toUpperCase())) {
      if (tokens[i + 1]?.text !== '(') refuse(writeMessage(t.text.toUpperCase()));
    }
  });
}
