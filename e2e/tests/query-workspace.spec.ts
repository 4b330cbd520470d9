import { expect, type Page, test } from '@playwright/test';
import { insertRows, issueQuery, runSchedule } from './data-seed';
import { signIn } from './helpers';

/** The query workspace: engine choice, schema browser, the database kept, errors naming it, result output. */

const SHOP = 'e2e_ws_shop';
const WEB = 'e2e_ws_web';

test.beforeEach(async ({ page }) => {
  await signIn(page);
  // Once per server, even when a failed test restarts the worker.
  const seeded = await page.evaluate(async (path) => (await fetch(path)).status === 200, `/v3/database/show/${SHOP}`);
  if (!seeded) {
    const views = ['/home', '/home', '/cart'].map((path, i) => ({ time: 1_700_000_000 + i, path, ms: 100 + i }));
    await insertRows(page, WEB, 'pageviews', views);
    await insertRows(page, SHOP, 'events', [{ time: 1_700_000_000, name: 'buy', amount: 12.5 }]);
  }
});

async function runQuery(page: Page, sql: string) {
  await page.getByRole('textbox', { name: 'SQL query' }).fill(sql);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

test('runs HiveQL with the Hive engine, and keeps the engine and database for the next visit', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`/data/query?database=${WEB}`);
  await page.getByText('Hive', { exact: true }).click();
  await runQuery(page, 'SELECT path, count(1) AS n FROM pageviews GROUP BY path ORDER BY path');
  // The server's first query starts its query process.
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible({ timeout: 30_000 });
  const grid = page.getByRole('table', { name: /^Result of job/ });
  await expect(grid.getByRole('row').nth(2).getByRole('cell').nth(2)).toHaveText('2');
  await page.getByRole('link', { name: /^Job \d+$/ }).click();
  await expect(page.getByText(/^hive job by/)).toBeVisible();

  // A click on Query in the navigation reopens the database and engine of the last query.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Query' }).click();
  await expect(page).toHaveURL(new RegExp(`database=${WEB}`));
  await expect(page.getByRole('radio', { name: 'Hive' })).toBeChecked();
});

test('the schema browser lists tables with row counts and column types, and a click inserts a name', async ({
  page,
}) => {
  await page.goto(`/data/query?database=${WEB}`);
  const schema = page.getByRole('region', { name: 'Schema' });
  const tables = schema.getByRole('list', { name: `Tables of ${WEB}` });
  await expect(tables.getByRole('button', { name: 'Insert table pageviews' })).toContainText('3 rows');
  await tables.getByRole('button', { name: 'Show columns of pageviews' }).click();
  await expect(schema.getByRole('button', { name: 'Insert column ms' })).toContainText('long');
  await expect(schema.getByRole('button', { name: 'Insert column path' })).toContainText('string');

  // Another database's tables open on demand.
  await schema.getByRole('button', { name: `Show tables of ${SHOP}` }).click();
  await expect(schema.getByRole('button', { name: 'Insert table events' })).toContainText('1 rows');

  const editor = page.getByRole('textbox', { name: 'SQL query' });
  await editor.fill('SELECT * FROM ');
  await editor.press('End');
  await schema.getByRole('button', { name: 'Insert table pageviews' }).click();
  await editor.press('End');
  await editor.pressSequentially(' WHERE ');
  await schema.getByRole('button', { name: 'Insert column path' }).click();
  await expect(editor).toHaveText('SELECT * FROM pageviews WHERE path');
});

test('a missing table names the database searched and the one that has it', async ({ page }) => {
  await page.goto(`/data/query?database=${WEB}`);
  await runQuery(page, 'SELECT count(*) FROM events');
  const alert = page.getByRole('alert').filter({ hasText: 'The query failed' });
  // Other tests of the run may have "events" tables too: the list names this test's database among them.
  await expect(alert).toContainText(`no such table: events in database ${WEB} (a table "events" is in `);
  await expect(alert).toContainText(SHOP);
});

test('writes a result to a table, shows where it went, and refuses a target that does not exist', async ({ page }) => {
  await page.goto(`/data/query?database=${WEB}`);
  const target = page.getByRole('textbox', { name: /Also write the result to/ });
  await target.fill('td://@/no_such_db/counts');
  await runQuery(page, 'SELECT path, count(*) AS n FROM pageviews GROUP BY path');
  await expect(page.getByRole('alert').filter({ hasText: 'The query was not run' })).toContainText(
    'the database "no_such_db" does not exist in this account',
  );

  await target.fill(`td://@/${SHOP}/path_counts?mode=replace`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible();
  await page.getByRole('link', { name: /^Job \d+$/ }).click();
  await expect(page.getByTestId('result-output')).toHaveText(
    `Rows written to td://@/${SHOP}/path_counts?mode=replace.`,
  );
  await expect(page.getByRole('region', { name: 'Debug output' })).toContainText(
    `${SHOP}.path_counts replaced by the 2 rows of the result`,
  );
  await page.goto(`/data/databases/${SHOP}`);
  await expect(page.getByRole('link', { name: 'path_counts' })).toBeVisible();
});

test('the jobs list shows who ran each job, its progress while it runs, and filters by user', async ({ page }) => {
  test.slow();
  const forever = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
  const id = await issueQuery(page, WEB, forever);
  await page.goto('/data/jobs');
  const jobs = page.getByRole('table', { name: 'Jobs' });
  const row = jobs.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) });
  await expect(row.getByRole('progressbar', { name: new RegExp(`^Job ${id} running for`) })).toBeVisible({
    timeout: 20_000,
  });
  const userName = ((await row.getByRole('cell').nth(4).textContent()) ?? '').trim();
  expect(userName).not.toBe('');
  const killed = await page.request.post(`/v3/job/kill/${id}`, { headers: { 'x-svc-console': '1' } });
  expect(killed.status()).toBe(200);
  await expect(row).toContainText('killed');
  await expect(row.getByRole('progressbar')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'User' }).click();
  await page.getByRole('option', { name: userName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`user=${encodeURIComponent(userName).replace(/%20/g, '(%20|\\+)')}`));
  await expect(row).toBeVisible();
  await page.goto('/data/jobs?user=nobody_of_that_name');
  await expect(page.getByText('No jobs match.')).toBeVisible();
});

test('the scheduled queries page shows next and last runs, runs one now and deletes one', async ({ page }) => {
  test.slow();
  const settings = {
    cron: '0 3 * * *',
    timezone: 'Asia/Tokyo',
    database: WEB,
    type: 'presto',
    query: 'SELECT 1 AS one',
  };
  const first = await runSchedule(page, 'e2e_ws_nightly', settings, 1_767_225_600);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scheduled queries' }).click();
  const table = page.getByRole('table', { name: 'Scheduled queries' });
  const row = table.getByRole('row').filter({ hasText: 'e2e_ws_nightly' });
  await expect(row).toContainText('0 3 * * *');
  await expect(row).toContainText('Asia/Tokyo');
  await expect(row.getByRole('link', { name: `Job ${first}` })).toBeVisible();
  await expect(row).toContainText('for 2026-01-01 00:00:00 UTC');

  await row.getByRole('button', { name: 'Run e2e_ws_nightly now' }).click();
  await expect(row.getByRole('link', { name: /^Job \d+$/ })).not.toHaveText(`Job ${first}`);
  await row.getByRole('link', { name: /^Job \d+$/ }).click();
  await expect(page.getByText(/a run of schedule e2e_ws_nightly/)).toBeVisible();

  await page.goBack();
  await row.getByRole('button', { name: 'Delete e2e_ws_nightly' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete schedule' }).click();
  await expect(row).toHaveCount(0);
});
