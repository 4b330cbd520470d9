import { accountsTables } from './accounts';
import { audiencesTables } from './audiences';
import { auditTables } from './audit';
import { bulkImportTables } from './bulkImport';
import { bulkLoadsTables } from './bulkLoads';
import { dataTables } from './data';
import { demoTables } from './demo';
import { dwhTables } from './dwh';
import { folderPermissionsTables } from './folderPermissions';
import { foldersTables } from './folders';
import { invitationsTables } from './invitations';
import { jobsTables } from './jobs';
import { journeyEngineTables } from './journeyEngine';
import { journeysTables } from './journeys';
import type { TablesOf } from './kinds';
import { platformTables } from './platform';
import { resultsTables } from './results';
import { savedQueriesTables } from './savedQueries';
import { schedulesTables } from './schedules';
import { sessionTables } from './session';
import { ssoTables } from './sso';

/**
 * Every table and column of the control database as the migrations (src/migrations, both backends) leave it,
 * one file per owning feature (scripts/tables.mjs). controlTables.test.ts migrates a SQLite file and a
 * PostgreSQL database and fails when this differs from what they hold: after a migration that adds or
 * changes a column, add it here with the kind the test names.
 */
export const controlTables = {
  ...accountsTables,
  ...audiencesTables,
  ...auditTables,
  ...bulkImportTables,
  ...bulkLoadsTables,
  ...dataTables,
  ...demoTables,
  ...dwhTables,
  ...folderPermissionsTables,
  ...foldersTables,
  ...invitationsTables,
  ...jobsTables,
  ...journeyEngineTables,
  ...journeysTables,
  ...platformTables,
  ...resultsTables,
  ...savedQueriesTables,
  ...schedulesTables,
  ...sessionTables,
  ...ssoTables,
};

/** The control database as Kysely sees it: `Kysely<Database>` checks table and column names and row types. */
export type Database = TablesOf<typeof controlTables>;
