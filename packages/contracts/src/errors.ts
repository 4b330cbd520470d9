import { z } from 'zod';

/** The error body of every failure, `/v1` included (wire-compat §1.4; spec, Errors); extra fields only beside the five. */
export const errorBody = z.object({
  error: z.string(),
  message: z.string(),
  text: z.string(),
  severity: z.literal('error'),
  status_code: z.number().int(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/**
 * The body of a 404 (spec, Errors): exactly these five fields, all three texts "Resource not found". What was
 * not found is named in the `X-SVC-Not-Found` response header, not in the body.
 */
export const notFoundBody = z.strictObject({
  error: z.literal('Resource not found'),
  message: z.literal('Resource not found'),
  text: z.literal('Resource not found'),
  severity: z.literal('error'),
  status_code: z.literal(404),
});
export type NotFoundBody = z.infer<typeof notFoundBody>;
