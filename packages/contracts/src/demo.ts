import { z } from 'zod';

/** The demo data of the first start (`GET /entities/demo`, `DELETE /entities/demo`). */
export const demoItem = z.object({
  kind: z.enum(['database', 'connection', 'parentSegment', 'journey', 'queryJob']),
  ref: z.string(),
  label: z.string(),
});
export type DemoItem = z.infer<typeof demoItem>;

/** What the demo holds in the caller's account; an empty list once deleted (or when there never was one). */
export const demoStatus = z.object({ items: z.array(demoItem) });
export type DemoStatus = z.infer<typeof demoStatus>;

/** What the delete action removed; query jobs stay in the job history and are only unmarked. */
export const demoDeleted = z.object({ deleted: z.array(demoItem) });
export type DemoDeleted = z.infer<typeof demoDeleted>;
