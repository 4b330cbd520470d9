import { z } from 'zod';
import { jobStatus } from './jobs';

/** `GET /console-api/overview`: the account's live figures for the console's overview, each from kept figures. */
export const overviewFigures = z.object({
  /** UTC days, oldest first, the last being today; days without rows are 0. */
  ingestedByDay: z.array(z.object({ day: z.string(), records: z.number() })),
  /** Jobs created since the start of today (UTC), by state. */
  jobsToday: z.array(z.object({ status: jobStatus, jobs: z.number() })),
  /** Launched journeys: profiles that entered them and that reached their goal, all time. */
  journeys: z.array(
    z.object({ id: z.string(), name: z.string(), paused: z.boolean(), entered: z.number(), goalReached: z.number() }),
  ),
  /** Parent segments by profiles as of their last build, largest first. */
  parentSegments: z.array(z.object({ id: z.string(), name: z.string(), profiles: z.number() })),
  /** The largest tables by stored size. */
  biggestTables: z.array(z.object({ database: z.string(), table: z.string(), records: z.number(), bytes: z.number() })),
});
export type OverviewFigures = z.infer<typeof overviewFigures>;
