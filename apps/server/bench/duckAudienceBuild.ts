import { buildProfiles } from '../src/audiences/matrix';
import { parentSegmentRow } from '../src/audiences/store';
import { findDatabase, findTable } from '../src/data/catalog';
import { duckDerived } from '../src/data/duckDerived';
import { closeDuckFiles } from '../src/data/duckFiles';
import { duckPlane, withDuckConnection } from '../src/data/duckPlane';
import { shopParentSegment } from '../src/journey-engine/fixture';
import { withBody } from '../src/testing/harness';
import { benchApp, expectOk, report } from './common';

/**
 * A parent segment build on DuckDB (issue 28, decision 0039): PROFILES master rows (one per customer, four
 * attributes) and EVENTS behavior rows (an attribute joined from them and a behavior), in the DuckDB files of the
 * data plane, built by the real build (matrix.ts) into a DuckDB derived set, led from the server with the app's
 * worker pool as the owners of the files. Timed: the build, from its start to its publication. The rows are made by DuckDB itself (not timed), since until the
 * embedded default switches to DuckDB the app's own writes go to SQLite; the catalog (tables, schemas, the parent
 * segment) is made through the API as a user would.
 * Run: `npx tsx bench/duckAudienceBuild.ts` in apps/server (BENCH_DUCK_PROFILES, BENCH_DUCK_EVENTS shrink it).
 */

const PROFILES = Number(process.env.BENCH_DUCK_PROFILES ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_DUCK_EVENTS ?? 10_000_000);
const log = (line: string) => process.stderr.write(`[duck audience build] ${line}\n`);

const bench = await benchApp();
const call = (method: string, path: string, opts: { json?: unknown; form?: Record<string, string> } = {}) =>
  bench.call(method, path, withBody(opts));
const now = Math.floor(Date.now() / 1000);

/** Creates the table in the catalog with its schema, then its DuckDB table, filled by `select`. */
async function table(name: string, schema: [string, string][], select: string) {
  await expectOk(call('POST', `/v3/table/create/shop/${name}/log`));
  await expectOk(call('POST', `/v3/table/update-schema/shop/${name}`, { form: { schema: JSON.stringify(schema) } }));
  const database = await findDatabase(bench.deps.storage.db, bench.account.accountId, 'shop');
  const row = database && (await findTable(bench.deps.storage.db, database.account_id, database.id, name));
  if (!database || !row) throw new Error(`shop.${name} is not in the catalog`);
  await duckPlane(bench.deps).transaction(database, (tx) => tx.ensureDataTable(row));
  await withDuckConnection(bench.deps, database, (conn) => conn.run(`INSERT INTO "${name}" ${select}`));
  return database;
}

try {
  await expectOk(call('POST', '/v3/database/create/shop'));
  log(`making ${PROFILES} customers and ${EVENTS} events in DuckDB`);
  await table(
    'customers',
    [
      ['customer_id', 'string'],
      ['vip', 'long'],
      ['engaged_at', 'long'],
      ['city', 'string'],
      ['amount', 'double'],
    ],
    `SELECT ${now} - i % 1000, 'C' || i, CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END,
            CASE WHEN i % 4 = 0 THEN ${now - 2 * 86_400} ELSE 0 END, 'city ' || (i % 50), (i % 1000) * 0.25
     FROM range(${PROFILES}) t(i)`,
  );
  await table(
    'events',
    [
      ['who', 'string'],
      ['action', 'string'],
    ],
    `SELECT ${now} - i % 100000, 'C' || (i % ${PROFILES}), CASE WHEN i % 3 = 0 THEN 'click' ELSE 'view' END
     FROM range(${EVENTS}) t(i)`,
  );
  // The files were written from this thread: closed, so the workers can own them.
  await closeDuckFiles();
  const parent = await expectOk(
    call('POST', '/audiences', {
      json: {
        name: shopParentSegment.name,
        master: shopParentSegment.master,
        attributes: [
          ...shopParentSegment.attributes.slice(0, 2),
          { name: 'city', parentColumn: 'city' },
          { name: 'amount', parentColumn: 'amount' },
          {
            name: 'last action',
            parentDatabaseName: 'shop',
            parentTableName: 'events',
            parentColumn: 'action',
            foreignKey: 'who',
          },
        ],
        behaviors: [
          {
            name: 'events',
            parentDatabaseName: 'shop',
            parentTableName: 'events',
            foreignKey: 'who',
            schema: [{ parentColumn: 'action' }],
          },
        ],
      },
    }),
  );
  // The app's own build (of its SQLite plane, empty) settles first; this build publishes as that job.
  const jobId = Number(parent.buildJobId);
  await bench.app.services.jobs.whenSettled(jobId);
  const row = await parentSegmentRow(bench.deps.storage.db, bench.account.accountId, Number(parent.id));
  if (!row) throw new Error('the parent segment is gone');
  const sets = duckDerived(bench.deps);
  log('building');
  const t0 = performance.now();
  const population = await buildProfiles(bench.deps, row, jobId, new AbortController().signal, sets);
  const buildSeconds = (performance.now() - t0) / 1000;
  const result = {
    backend: 'duckdb',
    profiles: population,
    events: EVENTS,
    buildSeconds: Math.round(buildSeconds * 10) / 10,
  };
  process.stderr.write(`${JSON.stringify(result, null, 2)}\n`);
  report(result);
} finally {
  bench.close();
}
