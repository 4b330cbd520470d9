import { isUtf8 } from 'node:buffer';
import type { MiddlewareHandler } from 'hono';
import { badRequest } from './errors';

const decoder = new TextDecoder();

/**
 * The offset of the first byte that starts no valid UTF-8 sequence (a stray continuation byte, an overlong
 * form, a surrogate, a code point past U+10FFFF, or a sequence cut short), or -1 when all of it is valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and past U+10FFFF (F4).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (next === undefined || next < min || next > max) return i;
    }
    i += length;
  }
  return -1;
}

/**
 * Decodes a request body as UTF-8, refusing invalid bytes with a 400 that names their offset: a decoder would
 * put U+FFFD in their place, and that would be stored as if the client had sent it. Every place that turns a
 * request body into text calls this (directly, or through `utf8Bodies`).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return decoder.decode(bytes);
  const at = firstInvalidUtf8(bytes);
  const byte = (bytes[at] as number).toString(16).toUpperCase().padStart(2, '0');
  throw badRequest(
    `The request body is not valid UTF-8: the byte at offset ${at} (0x${byte}) does not start a valid UTF-8 sequence. Encode the body as UTF-8.`,
  );
}

/** Content types read as text (JSON, forms, plain text), and a body sent without one, which is read as JSON. */
function textual(type: string | undefined): boolean {
  const t = (type ?? '').toLowerCase();
  return (
    t === '' ||
    t.startsWith('application/json') ||
    t.includes('+json') ||
    t.startsWith('application/x-www-form-urlencoded') ||
    t.startsWith('text/')
  );
}

/**
 * Refuses a text body that is not valid UTF-8 before any route reads it. The bytes stay cached on the request,
 * so the route's own `c.req.text()`, `json()` or validator reads them again without another trip to the socket.
 */
export function utf8Bodies(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && textual(c.req.header('content-type'))) {
      decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
    }
    await next();
  };
}
