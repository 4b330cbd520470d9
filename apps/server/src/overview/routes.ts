import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { errorBody, overviewFigures } from '@svc/contracts';
import { parentSegmentSizes } from '../audiences';
import { biggestTables, ingestedByDay } from '../data';
import { jobCountsByState } from '../jobs';
import { journeyEntriesAndGoals } from '../journey-engine';
import { launchedJourneys } from '../journeys';
import { principalOf, requireSession } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { jsonResponse as json } from '../platform/openapi';

/** Days of ingestion the overview shows, today included. */
const INGEST_DAYS = 14;
const BIGGEST_TABLES = 10;
const DAY_MS = 86_400_000;

const route = createRoute({
  security: [{ consoleSession: [] }],
  middleware: [requireSession()],
  tags: ['Console overview'],
  method: 'get',
  path: '/console-api/overview',
  summary: 'The account’s live figures: rows ingested per day, jobs today by state, journeys, segments, tables',
  description:
    'Every figure is read from what the service keeps (catalog figures, the per-day ingestion counter, job rows, ' +
    'the journey event index, parent segment populations); no customer row is read.',
  responses: {
    200: json(overviewFigures, 'The figures'),
    401: json(errorBody, 'No console session'),
  },
});

/** `/console-api/overview`: the figures of the console's landing page, scoped to the signed-in account. */
export function overviewRoutes(deps: AppDeps) {
  return new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
    const { accountId } = principalOf(c);
    const db = deps.storage.db;
    const now = deps.clock.now().getTime();
    const [ingested, jobs, journeys, segments, tables] = await Promise.all([
      ingestedByDay(db, accountId, now, INGEST_DAYS),
      jobCountsByState(db, accountId, now - (now % DAY_MS)),
      launchedJourneys(db, accountId),
      parentSegmentSizes(db, accountId),
      biggestTables(db, accountId, BIGGEST_TABLES),
    ]);
    const counts = await journeyEntriesAndGoals(
      db,
      accountId,
      journeys.map((j) => Number(j.id)),
    );
    return c.json(
      {
        ingestedByDay: ingested,
        jobsToday: jobs,
        journeys: journeys.map((j) => ({
          id: String(j.id),
          name: j.name,
          paused: Number(j.paused) === 1,
          entered: counts.get(Number(j.id))?.entered ?? 0,
          goalReached: counts.get(Number(j.id))?.goalReached ?? 0,
        })),
        parentSegments: segments.map((s) => ({ id: String(s.id), name: s.name, profiles: Number(s.population) })),
        biggestTables: tables,
      },
      200,
    );
  });
}
