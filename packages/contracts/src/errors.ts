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

/** The error body under `/v1` (the data-warehouse sync API), in the form of its public description. */
export const v1ErrorBody = z.object({
  error: z.object({
    code: z.number().int(),
    title: z.string(),
    message: z.string(),
    detail: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type V1ErrorBody = z.infer<typeof v1ErrorBody>;
