import { parseTime, timestampText } from './timeFormats';
import type { CastTarget } from './tokens';

/**
 * Presto CAST semantics in JavaScript, for the functions the DuckDB engine registers (duckdb/functions.ts): a
 * fraction cast to bigint rounds, and text that is not a number is an error, or NULL with TRY_CAST. Written
 * for the SQLite engine (gone, decision 0053), whose affinity got these wrong.
 */

export const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
export const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$|^\s*[+-]?(Infinity|NaN)\s*$/;

class CastFailure extends Error {}

function fail(v: unknown, type: string): never {
  throw new CastFailure(`Cannot cast ${JSON.stringify(String(v)).slice(0, 80)} to ${type}.`);
}

function roundHalfAway(n: number): number {
  return Math.sign(n) * Math.round(Math.abs(n));
}

function toBigint(v: unknown): unknown {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? roundHalfAway(v) : fail(v, 'bigint');
  if (typeof v === 'string') {
    if (INTEGER_TEXT.test(v)) {
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : BigInt(v.trim());
    }
    if (v.trim() === 'true' || v.trim() === 'false') return v.trim() === 'true' ? 1 : 0;
  }
  return fail(v, 'bigint');
}

function asDouble(v: unknown): unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && NUMBER_TEXT.test(v)) return Number(v.trim());
  return fail(v, 'double');
}

function toBoolean(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'bigint') return Number(v) === 0 ? 0 : 1;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') return 1;
    if (t === 'false' || t === '0') return 0;
  }
  return fail(v, 'boolean');
}

function convert(v: unknown, type: CastTarget): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'bigint':
      return toBigint(v);
    case 'double':
      return asDouble(v);
    case 'boolean':
      return toBoolean(v);
    case 'timestamp': {
      const ms = typeof v === 'string' ? parseTime(v) : null;
      return ms === null ? fail(v, 'timestamp') : timestampText(ms);
    }
    case 'date': {
      const ms = typeof v === 'string' ? parseTime(v) : null;
      return ms === null ? fail(v, 'date') : timestampText(ms).slice(0, 10);
    }
    case 'json':
      // A condition is JSON's true or false, as in Presto (the DuckDB UDF hands it over as a boolean).
      return typeof v === 'string' ? JSON.stringify(v) : String(v);
  }
}

const TARGETS = new Set<string>(['bigint', 'double', 'boolean', 'timestamp', 'date', 'json']);

function target(name: string, type: unknown): CastTarget {
  if (typeof type !== 'string' || !TARGETS.has(type)) throw new TypeError(`${name}: unknown type ${String(type)}.`);
  return type as CastTarget;
}

export function prestoCast(v: unknown, type: unknown): unknown {
  return convert(v, target('CAST', type));
}

export function prestoTryCast(v: unknown, type: unknown): unknown {
  const t = target('TRY_CAST', type);
  try {
    return convert(v, t);
  } catch (e) {
    if (e instanceof CastFailure) return null;
    throw e;
  }
}
