import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, unsupportedMediaType } from './errors';

export type Params = Record<string, string | number | boolean | null | object | undefined>;

/**
 * Reads request parameters the way real clients send them (wire-compat §1.2): the query string merged
 * with a JSON, form-urlencoded or multipart body. Body values win over the query string. An empty body,
 * with or without a Content-Type, is no parameters.
 */
export async function readParams(c: Context): Promise<Params> {
  const cached = c.get('params' as never) as Params | undefined;
  if (cached) return cached;
  const out: Params = { ...c.req.query() };
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD') {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    const raw = await c.req.text();
    if (raw.length > 0) {
      if (type.startsWith('application/json') || type === '' || type.includes('+json')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw badRequest('The request body is not valid JSON. Send a JSON object, form fields or no body.');
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
          throw badRequest('The JSON body must be an object of parameters.');
        }
        Object.assign(out, parsed);
      } else if (type.startsWith('application/x-www-form-urlencoded')) {
        for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
      } else if (type.startsWith('multipart/form-data')) {
        const form = await new Request('http://local/', {
          method: 'POST',
          headers: { 'content-type': c.req.header('content-type') ?? '' },
          body: raw,
        })
          .formData()
          .catch(() => {
            throw badRequest('The multipart body could not be read. Check its boundary and parts.');
          });
        for (const [k, v] of form) out[k] = typeof v === 'string' ? v : await v.text();
      } else {
        throw unsupportedMediaType(`Parameters must be sent as JSON, form-urlencoded or multipart, not "${type}".`);
      }
    }
  }
  c.set('params' as never, out as never);
  return out;
}

/** Describes zod issues in one sentence a person can act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? `"${i.path.join('.')}"` : 'the input';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/** Reads the merged parameters and validates them; a violation is a 400 naming each field. */
export async function input<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const params = await readParams(c);
  const result = schema.safeParse(params);
  if (!result.success) throw badRequest(describeIssues(result.error), { issues: result.error.issues });
  return result.data;
}

/** Path segments arrive percent-encoded by real clients; Hono decodes them. Booleans arrive as text. */
export function truthy(v: unknown): boolean {
  return v === true || (typeof v === 'string' && /^(true|1|yes)$/i.test(v));
}

/** A position in a listing (`from`, `to` of the job and schedule history), or `fallback` when absent. */
export function listIndex(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw badRequest(`"${name}" must be a whole number, 0 or more.`);
  return n;
}
