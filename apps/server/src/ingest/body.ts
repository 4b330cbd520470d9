import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type Principal, principalForRequestKey } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, payloadTooLarge, unauthorized } from '../platform/errors';

/** Nesting allowed inside one record: deeper values are refused rather than stored as giant JSON. */
const MAX_RECORD_DEPTH = 32;

/** A body limit that answers with the service's 413 body. */
export function ingestBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw payloadTooLarge(`The request body is larger than the limit of ${maxBytes} bytes.`);
    },
  });
}

/** Parses a JSON body; anything that is not JSON is a 400 saying so. */
export async function readJson(c: Context): Promise<unknown> {
  const raw = await c.req.text();
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
}

/** True when `value` nests objects or arrays deeper than `max`. */
function tooDeep(value: unknown, max = MAX_RECORD_DEPTH): boolean {
  if (max < 0) return true;
  if (value === null || typeof value !== 'object') return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => typeof child === 'object' && child !== null && tooDeep(child, max - 1));
}

export function checkRecord(value: unknown, where: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`${where} must be a JSON object of column names to values.`);
  }
  if (tooDeep(value)) throw badRequest(`${where} nests values deeper than ${MAX_RECORD_DEPTH} levels.`);
  return value as Record<string, unknown>;
}

const INVALID_KEY = 'Authentication failed: send a valid write-only or master API key.';

/** Resolves an ingestion key (write-only or master); a missing, unknown or revoked key is a 401. */
export async function ingestPrincipal(deps: AppDeps, c: Context, key: string | null | undefined): Promise<Principal> {
  const principal = key ? await principalForRequestKey(deps, c, key.trim()) : null;
  if (!principal) throw unauthorized(INVALID_KEY);
  return principal;
}
