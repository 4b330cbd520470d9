import { shopParentSegment } from '../src/journey-engine/fixture';
import { withBody } from '../src/testing/harness';
import { benchApp, benchBackend, expectOk, report, uploadAndPerform } from './common';

/**
 * A parent segment build over MASTER_ROWS master rows (PROFILES customers, four attributes), an attribute and a
 * behavior from ROWS event rows, on the backend of `SVC_BENCH_BACKEND` (the embedded default: DuckDB data): the build job's time from
 * queue to success, then one population count of a rule with an attribute and a behavior condition.
 * Run: `npx tsx bench/audienceBuild.ts` in apps/server (`SVC_BENCH_BACKEND=postgres` and `SVC_TEST_PG_URL`
 * for PostgreSQL).
 */

const ROWS = Number(process.env.BENCH_AUDIENCE_ROWS ?? 1_000_000);
const PROFILES = Number(process.env.BENCH_AUDIENCE_PROFILES ?? 100_000);
/** Master rows: as many as the event rows unless set (the size: 1 M master rows, one per customer, and 10 M events). */
const MASTER_ROWS = Number(process.env.BENCH_AUDIENCE_MASTER_ROWS ?? ROWS);
const log = (line: string) => process.stderr.write(`[audience build] ${line}\n`);

const bench = await benchApp();
const call = (method: string, path: string, opts: { json?: unknown } = {}) => bench.call(method, path, withBody(opts));
const now = Math.floor(Date.now() / 1000);

function masterRows(from: number, count: number) {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    const p = i % PROFILES;
    return {
      time: now - (i % 1000),
      customer_id: `C${p}`,
      vip: p % 3 === 0 ? 1 : 0,
      engaged_at: p % 4 === 0 ? now - 2 * 86_400 : 0,
      city: `city ${i % 50}`,
      amount: (i % 1000) * 0.25,
    };
  });
}

function eventRows(from: number, count: number) {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    return { time: now - (i % 100_000), who: `C${i % PROFILES}`, action: i % 3 ? 'view' : 'click' };
  });
}

async function load(
  table: string,
  total: number,
  rows: (from: number, count: number) => Record<string, string | number>[],
) {
  const name = `load_${table}`;
  await expectOk(call('POST', `/v3/table/create/shop/${table}/log`));
  await expectOk(call('POST', `/v3/bulk_import/create/${name}/shop/${table}`));
  await uploadAndPerform(bench, name, total, rows);
  await expectOk(call('POST', `/v3/bulk_import/commit/${name}`));
}

try {
  await expectOk(call('POST', '/v3/database/create/shop'));
  log(`loading ${MASTER_ROWS} master rows of ${PROFILES} customers and ${ROWS} event rows (${benchBackend()})`);
  await load('customers', MASTER_ROWS, masterRows);
  await load('events', ROWS, eventRows);
  log('building');
  const t0 = performance.now();
  const parent = await expectOk(
    call('POST', '/audiences', {
      json: {
        name: shopParentSegment.name,
        master: shopParentSegment.master,
        attributes: [
          // vip and engaged_at, as the journey scenarios have them.
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
  const status = await bench.app.services.jobs.whenSettled(Number(parent.buildJobId));
  const buildSeconds = (performance.now() - t0) / 1000;
  if (status !== 'success') throw new Error(`The build ended ${status}.`);
  const shown = await expectOk(call('GET', `/audiences/${parent.id}`));
  const t1 = performance.now();
  const counted = await expectOk(
    call('POST', `/audiences/${parent.id}/population`, {
      json: {
        rule: {
          type: 'And',
          conditions: [
            { type: 'Value', leftValue: { name: 'vip' }, operator: { type: 'Equal', rightValue: 1 } },
            {
              type: 'Behavior',
              behavior: 'events',
              filter: {
                type: 'And',
                conditions: [
                  { type: 'Value', leftValue: { name: 'action' }, operator: { type: 'Equal', rightValue: 'click' } },
                ],
              },
              count: { type: 'GreaterEqual', rightValue: 3 },
            },
          ],
        },
      },
    }),
  );
  const countSeconds = (performance.now() - t1) / 1000;
  const result = {
    backend: benchBackend(),
    rows: ROWS,
    masterRows: MASTER_ROWS,
    profiles: shown.population,
    buildSeconds: Math.round(buildSeconds * 10) / 10,
    countSeconds: Math.round(countSeconds * 100) / 100,
    counted: counted.population,
  };
  process.stderr.write(`${JSON.stringify(result, null, 2)}\n`);
  report(result);
} finally {
  bench.close();
}
