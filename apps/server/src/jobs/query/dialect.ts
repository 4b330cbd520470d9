/**
 * The Presto dialect's shared front: its tokenizer (tokens.ts) and `QueryRefused`. Each engine translates the
 * tokens itself (duckdb/translate.ts, postgres/translate.ts); see docs/query-dialect.md. The SQLite translation
 * that lived here went with the SQLite engine (decision 0053).
 */

export { QueryRefused, type Token, tokenize } from './tokens';
