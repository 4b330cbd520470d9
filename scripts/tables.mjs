// `pnpm run tables`: each control table belongs to one feature, which alone names it in SQL; other features
// reach it through the owner's index.ts (ARCHITECTURE.md "House rules"). The owners are listed here; every
// table the migrations create must have one, and a SQL statement in a feature's code (tests and test helpers
// aside) that names another feature's table is refused with its file and line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isTestCode, productSources, SOURCE } from './productSources.mjs';

/** Each feature's tables. `platform` holds what the storage layer itself keeps (firings, the secret's print). */
const OWNERS = {
  accounts: ['accounts', 'users', 'api_keys'],
  audiences: ['parent_segments', 'segments'],
  audit: ['audit_events'],
  'bulk-import': ['bulk_import_sessions', 'bulk_import_parts', 'bulk_import_files'],
  'bulk-loads': ['bulk_loads'],
  data: ['databases', 'tables', 'ingest_days'],
  demo: ['demo_items'],
  dwh: ['dwh_authentications', 'dwh_integrations', 'dwh_attempts', 'dwh_features'],
  'folder-permissions': ['folder_permissions'],
  folders: ['folders'],
  invitations: ['one_time_links'],
  jobs: ['jobs', 'job_results'],
  'journey-engine': [
    'journey_runs',
    'journey_profile_states',
    'journey_run_events',
    'journey_positions',
    'journey_figure_days',
    'journey_ab_days',
    'journey_figure_instants',
    'journey_ab_instants',
    'journey_deliveries',
    'journey_delivery_files',
    'journey_activation_queue',
    'journey_ab_assignments',
    'journey_notifications',
  ],
  journeys: ['journeys', 'journey_stages', 'journey_events', 'journey_activations'],
  platform: ['schedule_slots', 'service_settings'],
  results: ['result_connections'],
  'saved-queries': ['saved_queries'],
  schedules: ['schedules'],
  session: ['console_sessions', 'login_failures', 'login_notices'],
  sso: ['sso_settings', 'sso_domains', 'saml_requests', 'saml_seen_assertions'],
};

/**
 * The one exception: authentication, which runs before any feature and lives in platform/ (which imports no
 * feature), reads an API key and its user, and stamps the key's last use.
 */
const AUTHENTICATION = { 'platform/auth.ts': ['users'], 'platform/apiKeys.ts': ['api_keys'] };

const owner = new Map(Object.entries(OWNERS).flatMap(([feature, tables]) => tables.map((t) => [t, feature])));
const problems = [];

// Every table the migrations leave has an owner (tables made only to rebuild another, `x_new`, are renamed; a table
// a later migration drops is gone).
const created = new Set();
for (const name of readdirSync(join(SOURCE, 'migrations')).sort()) {
  if (!name.endsWith('.ts') || isTestCode(name)) continue;
  const text = readFileSync(join(SOURCE, 'migrations', name), 'utf8');
  // In the text's order: a table dropped to be rebuilt is renamed back after.
  const steps = /(CREATE TABLE (?:IF NOT EXISTS )?|DROP TABLE (?:IF EXISTS )?|RENAME TO )"?([a-z_]+)"?/g;
  for (const [, verb, table] of text.matchAll(steps)) {
    if (table.endsWith('_new')) continue;
    if (verb.startsWith('DROP')) created.delete(table);
    else created.add(table);
  }
}
for (const table of created) {
  if (!owner.has(table)) problems.push(`table ${table} (migrations) has no owner in scripts/tables.mjs`);
}
for (const table of owner.keys()) {
  if (!created.has(table)) problems.push(`table ${table} is listed in scripts/tables.mjs but no migration creates it`);
}

// SQL keywords are written in capitals in this code base, so prose in comments ("read from users") is not SQL.
const STATEMENT = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|DELETE FROM)\s+"?([a-z_]+)"?/g;
let files = 0;
for (const file of productSources()) {
  const path = relative(SOURCE, file);
  const feature = path.includes('/') ? path.split('/')[0] : null;
  // The migrations make every table; the composition root (src/*.ts) owns none and names none.
  if (feature === null || feature === 'migrations') continue;
  files++;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const [, table] of line.matchAll(STATEMENT)) {
        const by = owner.get(table);
        if (by && by !== feature && !AUTHENTICATION[path]?.includes(table)) {
          problems.push(
            `apps/server/src/${path}:${i + 1}: ${feature} names ${by}'s table ${table}; use ${by}'s index.ts`,
          );
        }
      }
    });
}

if (problems.length > 0) {
  for (const p of problems) console.error(`[tables] ${p}`);
  console.error(`[tables] ${problems.length} problems: a feature reads and writes only its own tables`);
  process.exit(1);
}
console.log(`[tables] ${owner.size} tables, ${files} files: each table is named only by its owner`);
