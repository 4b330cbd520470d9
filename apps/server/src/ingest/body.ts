import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type Principal, principalForRequestKey } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, payloadTooLarge, unauthorized } from '../platform/errors';
import { decodeUtf8 } from '../platform/utf8';

/** Nesting allowed inside one record: deeper values are refused rather than stored as giant JSON. */
const MAX_RECORD_DEPTH = 32;

const tooLarge = (maxBytes: number) =>
  payloadTooLarge(`The request body is larger than the limit of ${maxBytes} bytes.`);

/**
 * Refuses with the service's 413 a body whose declared length is over the limit, before anything else runs.
 * Served by Node it reads nothing: the handler reads the body with `readBody`, which holds the same limit for
 * bodies sent without a length (chunked). A request without a length that is not from a Node socket (in-process
 * calls) is read and measured here, as before.
 */
export function ingestBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  const measured = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxBytes) throw tooLarge(maxBytes);
      return next();
    }
    if (nodeRequest(c)) return next();
    return measured(c, next);
  };
}

/** The Node request a body can still be read from directly, when the app is served by Node and none read it. */
function nodeRequest(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && incoming.readableFlowing === null && !incoming.readableDidRead
    ? incoming
    : undefined;
}

/**
 * The body as text, refused with 413 past `maxBytes`. Served by Node, it is read straight from the socket's
 * request (ingestion answers thousands of small requests a second; the web Request and stream around the same
 * bytes cost more than the write itself); otherwise (in-process calls) from the web Request.
 */
export async function readBody(c: Context, maxBytes: number): Promise<string> {
  // The Node request only while nothing else has started reading it (nor wrapped it in a web stream).
  const source: AsyncIterable<Uint8Array> | null = nodeRequest(c) ?? c.req.raw.body;
  if (!source) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return decodeUtf8(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size));
}

/** Parses a JSON body of at most `maxBytes`; anything that is not JSON is a 400 saying so. */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  const raw = await readBody(c, maxBytes);
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
