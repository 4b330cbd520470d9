import { SAVED_QUERY_LIMITS, savedQueryEngine } from '@svc/contracts';
import { badRequest } from '../platform/errors';
import type { SavedQueryFields, SavedQueryRow } from './store';

/**
 * A saved query's fields from a create or update body: every problem of one field is a 400 naming it
 * (`details.field`, so the console shows it beside that field). Create needs name, engine, database and
 * query; update changes only what is sent. The database's existence and the query are checked by the caller.
 */

type Raw = Record<string, unknown>;

const fieldError = (field: string, message: string) => badRequest(message, { field });

function textField(raw: Raw, field: string, label: string, max: number, required: boolean): string | undefined {
  const v = raw[field];
  if (v === undefined || v === null) {
    if (required) throw fieldError(field, `Give the saved query ${label}.`);
    return undefined;
  }
  if (typeof v !== 'string') throw fieldError(field, `"${field}" must be text.`);
  if (v.length > max) {
    throw fieldError(
      field,
      `The ${label.replace(/^(a|an|its) /, '')} is ${v.length} characters long; at most ${max} are allowed.`,
    );
  }
  return v;
}

function nameOf(raw: Raw, required: boolean): string | undefined {
  const v = textField(raw, 'name', 'a name', SAVED_QUERY_LIMITS.name, required);
  if (v === undefined) return undefined;
  const name = v.trim();
  if (name === '') throw fieldError('name', 'Give the saved query a name: it cannot be empty.');
  if (/\p{Cc}/u.test(name)) throw fieldError('name', 'The name cannot contain control characters (tabs, line breaks).');
  return name;
}

function engineOf(raw: Raw, required: boolean): string | undefined {
  const v = raw.engine;
  if (v === undefined || v === null) {
    if (required) throw fieldError('engine', 'Choose the engine the query runs on: presto or hive.');
    return undefined;
  }
  const parsed = savedQueryEngine.safeParse(typeof v === 'string' ? v.toLowerCase() : v);
  if (!parsed.success) throw fieldError('engine', `"engine" must be presto or hive, not "${String(v).slice(0, 40)}".`);
  return parsed.data;
}

function queryOf(raw: Raw, required: boolean): string | undefined {
  const v = textField(raw, 'query', 'its query', SAVED_QUERY_LIMITS.query, required);
  if (v !== undefined && v.trim() === '') throw fieldError('query', 'The query is empty: write the SQL to save.');
  return v;
}

/** The fields of a new saved query (`before` null) or the changed fields of one. */
export function savedQueryFields(raw: Raw, before: SavedQueryRow | null): SavedQueryFields {
  const required = before === null;
  const database = textField(raw, 'database', 'a database', 255, required);
  if (database !== undefined && database.trim() === '')
    throw fieldError('database', 'Choose the database the query reads.');
  return {
    name: nameOf(raw, required) ?? (before?.name as string),
    description:
      textField(raw, 'description', 'a description', SAVED_QUERY_LIMITS.description, false) ??
      before?.description ??
      '',
    type: engineOf(raw, required) ?? (before?.type as string),
    database_name: database ?? (before?.database_name as string),
    query: queryOf(raw, required) ?? (before?.query as string),
  };
}

/** A copy's name: the one asked for, else "Copy of <name>" cut to the limit. */
export function copyName(raw: Raw, source: SavedQueryRow): string {
  return nameOf(raw, false) ?? `Copy of ${source.name}`.slice(0, SAVED_QUERY_LIMITS.name);
}
