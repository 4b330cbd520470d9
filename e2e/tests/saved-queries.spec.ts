import { expect, type Page, test } from '@playwright/test';
import { insertRows } from './data-seed';
import { signIn } from './helpers';

/** Saved queries: saved from the editor, found by search, opened, run, duplicated and deleted; bad names refused. */

const DB = 'e2e_saved_web';

test.beforeEach(async ({ page }) => {
  await signIn(page);
  const seeded = await page.evaluate(async (path) => (await fetch(path)).status === 200, `/v3/database/show/${DB}`);
  if (!seeded) {
    await insertRows(
      page,
      DB,
      'visits',
      ['/home', '/home', '/cart'].map((path, i) => ({ time: 1_700_000_000 + i, path })),
    );
  }
});

async function saveAs(page: Page, name: string, description = '') {
  await page.getByRole('button', { name: 'Save as' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save query' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Description' }).fill(description);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  return dialog;
}

test('saves a query from the editor, refusing an empty or taken name at the field', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(`/data/query?database=${DB}`);
  await page.getByRole('textbox', { name: 'SQL query' }).fill('SELECT path, count(1) AS n FROM visits GROUP BY path');

  const dialog = await saveAs(page, '   ');
  await expect(dialog.getByText('Give the saved query a name: it cannot be empty.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Visits by path');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Counts per page');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/saved=\d+/);

  // "Save" now overwrites it with the editor's SQL.
  await page
    .getByRole('textbox', { name: 'SQL query' })
    .fill('SELECT path, count(1) AS n FROM visits GROUP BY path ORDER BY n DESC');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // The server now holds the editor's SQL (the notification of "Save as" may still show, so it proves nothing).
  const savedSql = () =>
    page.evaluate(async () => {
      const body = (await (await fetch('/entities/saved-queries?search=Visits%20by%20path')).json()) as {
        savedQueries: { query: string }[];
      };
      return body.savedQueries.map((q) => q.query);
    });
  await expect.poll(savedSql).toEqual(['SELECT path, count(1) AS n FROM visits GROUP BY path ORDER BY n DESC']);

  // A second query of the same name is refused at the name field, and nothing is made.
  const again = await saveAs(page, 'Visits by path');
  await expect(again.getByText(/a saved query named "Visits by path" already exists/)).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved queries' }).click();
  const table = page.getByRole('table', { name: 'Saved queries' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Counts per page');
  await expect(table).toContainText('never');
});

test('searches, opens in the editor, runs, duplicates and deletes saved queries', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(`/data/query?database=${DB}`);
  await page
    .getByRole('textbox', { name: 'SQL query' })
    .fill("SELECT count(1) AS homes FROM visits WHERE path = '/home'");
  await expect(await saveAs(page, 'Home visits', 'Only the home page')).toBeHidden();

  await page.goto('/data/saved-queries');
  const table = page.getByRole('table', { name: 'Saved queries' });
  await page.getByRole('textbox', { name: 'Search' }).fill('HOME PAGE');
  await expect(table.getByRole('link', { name: /^Open .* in the editor$/ })).toHaveText(['Home visits']);
  await page.getByRole('textbox', { name: 'Search' }).fill('no query says this');
  await expect(page.getByText('No saved query matches "no query says this".')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('home');

  // Open: the editor holds its SQL and database.
  await table.getByRole('link', { name: 'Open Home visits in the editor' }).click();
  await expect(page.getByRole('textbox', { name: 'SQL query' })).toHaveText(
    "SELECT count(1) AS homes FROM visits WHERE path = '/home'",
  );
  await expect(page).toHaveURL(new RegExp(`database=${DB}`));

  // Run from the list: the editor shows the job's result, and the list its last run.
  await page.goto('/data/saved-queries');
  await table.getByRole('button', { name: 'Run Home visits' }).click();
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible({ timeout: 30_000 });
  const grid = page.getByRole('table', { name: /^Result of job/ });
  await expect(grid.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('2');
  await page.goto('/data/saved-queries');
  const row = table.getByRole('row').filter({ hasText: 'Home visits' });
  await expect(row.getByText('success')).toBeVisible();
  await row.getByRole('link', { name: /^Job \d+$/ }).click();
  await expect(page).toHaveURL(/\/data\/jobs\/\d+$/);

  await page.goto('/data/saved-queries');
  await table.getByRole('button', { name: 'Duplicate Home visits' }).click();
  await expect(table.getByRole('link', { name: 'Open Copy of Home visits in the editor' })).toBeVisible();
  await table.getByRole('button', { name: 'Delete Copy of Home visits' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete saved query' }).click();
  await expect(table.getByRole('link', { name: 'Open Copy of Home visits in the editor' })).toBeHidden();
  await expect(table.getByRole('link', { name: 'Open Home visits in the editor' })).toBeVisible();
});
