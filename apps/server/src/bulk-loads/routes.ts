import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  BULK_LOAD_NAME,
  bulkLoadConfig,
  bulkLoadJob,
  bulkLoadSession,
  bulkLoadSettings,
  DATA_NAME,
  errorBody,
} from '@svc/contracts';
import type { Context } from 'hono';
import { requireDatabase, requireTable } from '../data';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { describeIssues, input } from '../platform/params';
import {
  checkCron,
  checkFilters,
  checkSourceOptions,
  checkTimezone,
  keepMaskedCredentials,
  parseStartAt,
  readConfig,
} from './config';
import { sealCredentials } from './secrets';
import {
  type BulkLoadRow,
  type BulkLoadValues,
  deleteBulkLoad,
  insertBulkLoad,
  listBulkLoadJobs,
  listBulkLoads,
  requireBulkLoad,
  toWireSession,
  updateBulkLoad,
} from './store';

const security = [{ SVC1: [] }];
const error = (description: string) => json(errorBody, description);
const nameParam = z.object({
  name: z.string().meta({ description: 'Session name, optionally with a `.json` suffix', example: 'daily_s3' }),
});
const settingsBody = (description: string) => ({
  description,
  required: true,
  content: { 'application/json': { schema: { type: 'object' as const } } },
});

const createParams = bulkLoadSettings.extend({ start_at: z.unknown().optional() });
const updateParams = createParams.partial();

/** The session name from the path, without the optional format suffix the spec allows. */
function sessionName(c: Context<AppEnv>): string {
  const raw = (c.req.param('name') ?? '').replace(/\.json$/, '');
  if (!BULK_LOAD_NAME.test(raw)) throw notFound();
  return raw;
}

function checkNames(database: string, table: string): void {
  if (!DATA_NAME.test(database))
    throw badRequest('"database" must be 3 to 255 lowercase letters, digits or underscores.');
  if (!DATA_NAME.test(table)) throw badRequest('"table" must be 3 to 255 lowercase letters, digits or underscores.');
}

/** Validates merged settings into the stored values; the database and table must exist (404 otherwise). */
async function toValues(
  deps: AppDeps,
  accountId: number,
  s: z.infer<typeof updateParams>,
  before?: BulkLoadRow,
): Promise<BulkLoadValues> {
  const name = s.name ?? before?.name;
  const database = s.database ?? before?.database_name;
  const table = s.table ?? before?.table_name;
  if (!name || !database || !table) throw badRequest('Send "name", "database", "table" and "config".');
  checkNames(database, table);
  const db = await requireDatabase(deps.storage.db, accountId, database);
  await requireTable(deps.storage.db, accountId, db.id, table);
  const timezone = checkTimezone(s.timezone ?? before?.timezone ?? 'UTC');
  const cron = checkCron(s.cron === undefined ? (before?.cron ?? null) : s.cron, timezone);
  const stored = before ? readConfig(before.config_json, 'bulk_loads.config_json') : undefined;
  const parsed = bulkLoadConfig.safeParse(s.config ? keepMaskedCredentials(s.config, stored) : stored);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error).replace(/^"/, '"config.'));
  checkSourceOptions(parsed.data.in, 'config.in');
  checkFilters(parsed.data.filters, 'config.filters');
  const timeColumn = s.time_column === undefined ? (before?.time_column ?? null) : s.time_column;
  // The dataset is always the session's database, as on integration sessions.
  const out: Record<string, unknown> = {
    type: 'svc_internal',
    mode: 'append',
    ...parsed.data.out,
    plazma_dataset: database,
  };
  if (timeColumn && out.time_column === undefined) out.time_column = timeColumn;
  return {
    name,
    database_name: database,
    table_name: table,
    cron,
    timezone,
    delay: s.delay ?? before?.delay ?? 0,
    start_at: s.start_at === undefined ? (before?.start_at ?? null) : parseStartAt(s.start_at),
    time_column: timeColumn,
    // Credentials typed into the config are sealed at rest (secrets.ts); reads mask them.
    config_json: JSON.stringify(sealCredentials(deps.config.secret, { ...parsed.data, out })),
  };
}

const routes = (deps: AppDeps) => {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Bulk loads'] };
  const list = (path: string) =>
    createRoute({
      ...base,
      method: 'get',
      path,
      summary: 'Bulk load sessions (a JSON array; credentials masked)',
      responses: { 200: json(z.array(bulkLoadSession), 'Every session of the account') },
    });
  const jobs = (path: string) =>
    createRoute({
      ...base,
      method: 'get',
      path,
      summary: 'Jobs the session ran, newest first (times in Unix seconds)',
      request: { params: nameParam },
      responses: { 200: json(z.array(bulkLoadJob), 'The jobs'), 404: error('No such session') },
    });
  const one = (method: 'get' | 'put' | 'delete', summary: string) =>
    createRoute({
      ...base,
      method,
      path: '/v3/bulk_loads/{name}',
      summary,
      request: {
        params: nameParam,
        ...(method === 'put' ? { body: settingsBody('Settings to change; the rest stay') } : {}),
      },
      responses: {
        200: json(bulkLoadSession, 'The session'),
        ...(method === 'put' ? { 400: error('Invalid settings; the message says which') } : {}),
        404: error('No such session, database or table'),
      },
    });
  return {
    list: list('/v3/bulk_loads'),
    listJson: list('/v3/bulk_loads.json'),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/v3/bulk_loads',
      summary: 'Create a bulk load session',
      request: {
        body: settingsBody('name, database, table, config, and optionally cron, timezone, delay, time_column'),
      },
      responses: {
        200: json(bulkLoadSession, 'The new session'),
        400: error('Invalid settings; the message says which'),
        404: error('No such database or table'),
        409: error('A session of that name exists'),
      },
    }),
    show: one('get', 'One bulk load session'),
    update: one('put', 'Change a bulk load session'),
    remove: one('delete', 'Delete a bulk load session'),
    jobs: jobs('/v3/bulk_loads/{name}/jobs'),
    jobsJson: jobs('/v3/bulk_loads/{name}/jobs.json'),
  };
};

/** `/v3/bulk_loads*` (spec "Bulk load sessions"; wire-compat §2.6): master keys only. */
export function bulkLoadRoutes(deps: AppDeps) {
  const r = routes(deps);
  const db = deps.storage.db;
  const listAll = async (c: Context<AppEnv>) =>
    c.json((await listBulkLoads(db, principalOf(c).accountId)).map(toWireSession), 200);
  const jobsOf = async (c: Context<AppEnv>) => {
    const row = await requireBulkLoad(db, principalOf(c).accountId, sessionName(c));
    return c.json(await listBulkLoadJobs(deps, row), 200);
  };
  const now = () => deps.clock.now().getTime();
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, listAll)
    .openapi(r.listJson, listAll)
    .openapi(r.create, async (c) => {
      const { accountId, userId } = principalOf(c);
      const values = await toValues(deps, accountId, await input(c, createParams));
      return c.json(toWireSession(await insertBulkLoad(db, accountId, values, now(), { userId })), 200);
    })
    .openapi(r.show, async (c) =>
      c.json(toWireSession(await requireBulkLoad(db, principalOf(c).accountId, sessionName(c))), 200),
    )
    .openapi(r.update, async (c) => {
      const { accountId } = principalOf(c);
      const row = await requireBulkLoad(db, accountId, sessionName(c));
      const values = await toValues(deps, accountId, await input(c, updateParams), row);
      return c.json(toWireSession(await updateBulkLoad(db, row, values, now())), 200);
    })
    .openapi(r.remove, async (c) => {
      const row = await requireBulkLoad(db, principalOf(c).accountId, sessionName(c));
      await deleteBulkLoad(db, row);
      return c.json(toWireSession(row), 200);
    })
    .openapi(r.jobs, jobsOf)
    .openapi(r.jobsJson, jobsOf);
}
