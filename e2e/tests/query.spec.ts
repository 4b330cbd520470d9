import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { bulkImportRecords, createDatabase, dropFiles, jsonLines } from './import-fixtures';

const DB = 'e2e_query';
const PATHS = { '/cart': 10, '/home': 15, '/pay': 5 } as const;
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/**
 * 30 page views over three paths, imported once the way the wizard imports: a bulk import session with
 * two gzip msgpack parts (one path split across them), performed and committed.
 */
async function seed(page: Page) {
  const rows = Object.entries(PATHS).flatMap(([path, n]) =>
    Array.from({ length: n }, (_, i) => ({ time: 1_700_000_000 + i, path, ms: 100 + i })),
  );
  await createDatabase(page, DB, 'pageviews');
  const counts = await bulkImportRecords(page, DB, 'pageviews', [rows.slice(0, 12), rows.slice(12)]);
  expect(counts).toMatchObject({ valid_records: 30, error_records: 0 });
}

let seeded = false;
test.beforeEach(async ({ page }) => {
  await signIn(page);
  if (!seeded) {
    await seed(page);
    seeded = true;
  }
  await page.goto(`/data/query?database=${DB}`);
  await expect(page.getByRole('heading', { name: 'Query' })).toBeVisible();
});

async function runQuery(page: Page, sql: string) {
  const editor = page.getByRole('textbox', { name: 'SQL query' });
  await editor.fill(sql);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

test('counts and groups the imported rows, shows column types, keeps the query in the recent list', async ({
  page,
}) => {
  await runQuery(page, 'SELECT count(*) AS n FROM pageviews');
  const count = page.getByRole('table', { name: /^Result of job/ });
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible();
  await expect(count.getByRole('columnheader', { name: /n\s+bigint/ })).toBeVisible();
  await expect(count.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('30');

  await runQuery(page, 'SELECT path, count(*) AS n\nFROM pageviews\nGROUP BY path\nORDER BY path');
  const grouped = page.getByRole('table', { name: /^Result of job/ });
  await expect(grouped.getByRole('columnheader', { name: /path\s+varchar/ })).toBeVisible();
  await expect(page.getByText('3 rows')).toBeVisible();
  const rows = grouped.getByRole('row');
  for (const [i, [path, n]] of Object.entries(PATHS).entries()) {
    const cells = rows.nth(i + 1).getByRole('cell');
    await expect(cells.nth(1)).toHaveText(path);
    await expect(cells.nth(2)).toHaveText(String(n));
  }
  // The download links carry the job's result in the chosen format.
  await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', /format=csv/);

  // Recent queries survive a reload and bring a query back into the editor.
  await page.goto(`/data/query?database=${DB}`);
  const recent = page.getByRole('region', { name: 'Recent queries' });
  await recent.getByRole('button', { name: /SELECT count\(\*\) AS n FROM pageviews/ }).click();
  await expect(page.getByRole('textbox', { name: 'SQL query' })).toHaveText('SELECT count(*) AS n FROM pageviews');
});

test('what date_trunc returns is shown as a timestamp column, not as text', async ({ page }) => {
  await runQuery(page, "SELECT date_trunc('day', from_unixtime(time)) AS day, count(*) AS n FROM pageviews GROUP BY 1");
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible();
  const result = page.getByRole('table', { name: /^Result of job/ });
  await expect(result.getByRole('columnheader', { name: /day\s+timestamp/ })).toBeVisible();
  await expect(result.getByRole('columnheader', { name: /n\s+bigint/ })).toBeVisible();
});

test('a syntax error shows the engine message and where it is', async ({ page }) => {
  await runQuery(page, 'SELECT path FROM pageviews\nWHERE ms > 100 ORDR BY path');
  await expect(page.getByRole('status', { name: /error/ })).toBeVisible();
  const alert = page.getByRole('alert').filter({ hasText: 'The query failed' });
  await expect(alert).toContainText('near "ORDR": syntax error');
  await expect(alert).toContainText('At line 2, column 16');
  // The editor underlines the token.
  await expect(page.locator('.cm-lintRange-error')).toHaveText('ORDR');
});

test('a long query can be cancelled while it runs', async ({ page }) => {
  await runQuery(page, FOREVER);
  await expect(page.getByRole('status', { name: /running/ })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel query' }).click();
  await expect(page.getByRole('status', { name: /killed/ })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The query was stopped' })).toContainText('Killed');
  await expect(page.getByRole('button', { name: 'Cancel query' })).toHaveCount(0);
});

test("the editor's completion offers the words of a query, not standard SQL's whole vocabulary", async ({ page }) => {
  const editor = page.getByRole('textbox', { name: 'SQL query' });
  const offered = async (text: string) => {
    await editor.fill(text);
    await editor.press('End');
    await editor.press('Control+Space');
    const options = page.getByRole('listbox').getByRole('option');
    await expect(options.first()).toBeVisible();
    const labels = await options.allInnerTexts();
    await editor.press('Escape');
    return labels.map((l) => (l.trim().split(/\s/)[0] as string).toUpperCase());
  };
  const c = await offered('SELECT C');
  expect(c).toEqual(expect.arrayContaining(['CASE', 'CAST', 'COUNT', 'COALESCE']));
  for (const noise of ['CLOB', 'CASCADED', 'CASCADE', 'CLOSE', 'CURSOR', 'COLLATION']) expect(c).not.toContain(noise);
  // The engine's own functions are offered.
  expect(await offered('SELECT td_time_r')).toContain('TD_TIME_RANGE');
});

test('the editor completes table and column names of the chosen database', async ({ page }) => {
  const editor = page.getByRole('textbox', { name: 'SQL query' });
  await editor.fill('SELECT * FROM pagev');
  await editor.press('Control+Space');
  await page.getByRole('option', { name: 'pageviews', exact: true }).click();
  await expect(editor).toHaveText('SELECT * FROM pageviews');

  await editor.press('End');
  await editor.pressSequentially(' WHERE pa');
  await editor.press('Control+Space');
  await page.getByRole('option', { name: 'path', exact: true }).click();
  await expect(editor).toHaveText('SELECT * FROM pageviews WHERE path');
});

test('a large result scrolls in a virtualised table that renders only the rows in view', async ({ page }) => {
  await runQuery(
    page,
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) SELECT x FROM c',
  );
  await expect(page.getByText('5,000 rows')).toBeVisible();
  const grid = page.getByRole('table', { name: /^Result of job/ });
  await expect(grid.getByRole('row').nth(1)).toContainText('1');
  expect(await grid.getByRole('row').count()).toBeLessThan(80);
  await grid.evaluate((table) => {
    const scroller = table.parentElement as HTMLElement;
    scroller.scrollTop = scroller.scrollHeight;
  });
  await expect(grid.getByRole('row').filter({ hasText: /^5000\s*5000$/ })).toBeVisible();
  expect(await grid.getByRole('row').count()).toBeLessThan(80);
});

test('a file dropped on the query page opens the import wizard with it, for the chosen database', async ({ page }) => {
  await dropFiles(page, 'import-drop-zone', [jsonLines(3)]);
  await expect(page).toHaveURL(/\/data\/import\?database=e2e_query$/);
  await expect(page.getByRole('table', { name: 'Files to import' })).toContainText('clicks.jsonl');
});

test('a file dropped outside any drop area (the navigation) opens the wizard, not the file', async ({ page }) => {
  await dropFiles(page, page.getByRole('navigation', { name: 'Main' }), [jsonLines(2)]);
  await expect(page).toHaveURL(/\/data\/import\?database=e2e_query$/);
  await expect(page.getByRole('table', { name: 'Files to import' })).toContainText('clicks.jsonl');
  // In the wizard, a file dropped beside its drop area is added on the files step, and nothing navigates.
  await dropFiles(page, page.getByRole('navigation', { name: 'Main' }), [{ ...jsonLines(1), name: 'more.jsonl' }]);
  await expect(page.getByRole('table', { name: 'Files to import' })).toContainText('more.jsonl');
  await expect(page).toHaveURL(/\/data\/import/);
});
