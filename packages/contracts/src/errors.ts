import { z } from 'zod';

/** The error body of every failure (wire-compat §1.4). */
export const errorBody = z.object({
  error: z.string(),
  message: z.string(),
  text: z.string(),
  severity: z.literal('error'),
  status_code: z.number().int(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
