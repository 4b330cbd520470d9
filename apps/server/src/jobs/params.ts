import { z } from '@hono/zod-openapi';
import { errorBody } from '@svc/contracts';
import { jsonResponse } from '../platform/openapi';

/** Parameters of the job routes and their OpenAPI pieces. */

const reasons: Record<number, string> = {
  400: 'Invalid parameters, or SQL that does more than read',
  401: 'No valid API key',
  403: 'A write-only key',
  404: 'No such job, database or result in the caller’s account',
  409: 'The domain key was used by another job (`details.conflicts_with`)',
  416: 'A range outside the result',
  422: 'A job type other than hive, presto or trino, or a result output to a scheme not offered',
};
export const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      code,
      { description: reasons[code] ?? 'Error', content: { 'application/json': { schema: errorBody } } },
    ]),
  );
export const json = jsonResponse;

const PRIORITY_NAMES: Record<string, number> = { 'VERY LOW': -2, LOW: -1, NORMAL: 0, HIGH: 1, 'VERY HIGH': 2 };

/** `priority` as clients send it: -2…2, or a name (VERY LOW … VERY HIGH); absent or empty is 0. */
export const priorityParam = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return 0;
    const named = typeof v === 'string' ? PRIORITY_NAMES[v.trim().toUpperCase().replace(/[_-]/g, ' ')] : undefined;
    const n = named ?? Number(v);
    if (!Number.isInteger(n) || n < -2 || n > 2) {
      ctx.addIssue({
        code: 'custom',
        message: 'Send "priority" as a whole number from -2 to 2 (or VERY LOW … VERY HIGH).',
      });
      return z.NEVER;
    }
    return n;
  });

/** `retry_limit`: 0 to 32 (the OAS range); absent or empty is 0. */
export const retryLimitParam = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v, ctx) => {
    const n = v === undefined || v === '' ? 0 : Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 32) {
      ctx.addIssue({ code: 'custom', message: 'Send "retry_limit" as a whole number from 0 to 32.' });
      return z.NEVER;
    }
    return n;
  });

/** Issue parameters in any encoding (wire-compat §1.2); RB also sends `type`, PY may send `result`. */
export const issueParams = z.object({
  query: z
    .string({ error: 'Send "query": the SQL to run.' })
    .refine((q) => q.trim().length > 0, 'Send "query": the SQL to run.'),
  priority: priorityParam,
  Priority: priorityParam,
  retry_limit: retryLimitParam,
  domain_key: z
    .union([z.string(), z.number()])
    .optional()
    .transform((v) => (v === undefined || v === '' ? null : String(v)))
    .refine((v) => v === null || v.length <= 255, '"domain_key" must be at most 255 characters.'),
  result: z.string().optional(),
  result_url: z.string().optional(),
});

export const listQuery = z.object({
  from: z.string().optional().openapi({ description: 'Index of the first job, newest first (default 0)' }),
  to: z.string().optional().openapi({ description: 'Index of the last job, included (default from + 19)' }),
  status: z.string().optional().openapi({ description: 'queued, running, success, error or killed' }),
  type: z.string().optional().openapi({ description: 'Only jobs of this type, e.g. presto or bulk_import' }),
  database: z.string().optional().openapi({ description: 'Only jobs of this database' }),
  user: z.string().optional().openapi({ description: 'Only jobs issued by the user of this name' }),
});

export const resultQuery = z.object({
  format: z.string().optional().openapi({ description: 'json, csv, tsv (default), msgpack or msgpack.gz' }),
  header: z
    .string()
    .optional()
    .openapi({ description: 'true (any case) puts the column names first (json, csv, tsv)' }),
});

/**
 * Documents parameters that clients send as JSON, form-urlencoded, multipart or the query string
 * (wire-compat §1.2). A JSON Schema, not zod, so the route validates nothing: the handler reads the
 * merged parameters with `input()`.
 */
export function wireBody(schema: z.ZodType, description: string) {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const media = { schema: jsonSchema as { type?: 'object' } };
  return {
    description,
    required: false,
    content: { 'application/json': media, 'application/x-www-form-urlencoded': media, 'multipart/form-data': media },
  };
}
