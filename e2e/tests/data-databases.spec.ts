import { expect, test } from '@playwright/test';
import { createDatabase, insertRows, setDeleteProtected } from './data-seed';
import { signIn } from './helpers';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('a database is created, listed, and deleted after typing its name', async ({ page }) => {
  await page.getByRole('link', { name: 'Databases' }).click();
  await expect(page.getByRole('heading', { name: 'Databases' })).toBeVisible();

  await page.getByRole('button', { name: 'Create database' }).click();
  const create = page.getByRole('dialog', { name: 'Create database' });
  await create.getByLabel('Database name').fill('Bad-Name');
  await expect(create.getByRole('button', { name: 'Create database' })).toBeDisabled();
  // Names the storage engines reserve are refused before sending, with the server's own message.
  await create.getByLabel('Database name').fill('sqlite_master');
  await create.getByLabel('Database name').blur();
  await expect(create.getByText('The database name "sqlite_master" is reserved by the storage engines')).toBeVisible();
  await expect(create.getByRole('button', { name: 'Create database' })).toBeDisabled();
  await create.getByLabel('Database name').fill('e2e_created');
  await create.getByRole('button', { name: 'Create database' }).click();
  await expect(page.getByRole('heading', { name: 'e2e_created' })).toBeVisible();
  await expect(page.getByText('This database has no tables yet')).toBeVisible();

  await page.getByRole('link', { name: 'Databases' }).first().click();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'e2e_created' }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('0');

  await row.getByRole('button', { name: 'Delete e2e_created' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete database e2e_created' });
  await expect(confirm).toContainText('Delete the database e2e_created');
  const submit = confirm.getByRole('button', { name: 'Delete database' });
  await expect(submit).toBeDisabled();
  await confirm.getByLabel('Type e2e_created to confirm').fill('e2e_created');
  await submit.click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Databases' }).getByText('e2e_created')).toHaveCount(0);
});

test('a delete-protected database cannot be deleted, and the page says why', async ({ page }) => {
  await createDatabase(page, 'e2e_protected');
  await setDeleteProtected(page, 'e2e_protected', true);
  await page.goto('/data/databases');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'e2e_protected' }) });
  await expect(row).toContainText('Protected');
  await expect(row.getByRole('button', { name: /Delete e2e_protected/ })).toBeDisabled();

  await row.getByRole('link', { name: 'e2e_protected' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This database is delete-protected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete database' })).toBeDisabled();
  // Turning protection off makes it deletable.
  await page.getByRole('switch', { name: 'Delete protection' }).click({ force: true });
  await expect(page.getByRole('button', { name: 'Delete database' })).toBeEnabled();
});

test('the table page shows figures, the schema and the newest rows, with links to import and query', async ({
  page,
}) => {
  const rows = Array.from({ length: 12 }, (_, i) => ({
    time: 1_700_000_000 + i * 60,
    path: `/page/${i}`,
    ms: 100 + i,
  }));
  await insertRows(page, 'e2e_tables', 'visits', rows);

  await page.goto('/data/databases');
  const dbRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'e2e_tables' }) });
  await expect(dbRow.getByRole('cell').nth(1)).toHaveText('1');
  await expect(dbRow.getByRole('cell').nth(2)).toHaveText('12');
  await dbRow.getByRole('link', { name: 'e2e_tables' }).click();

  const tableRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'visits' }) });
  await expect(tableRow).toContainText('12');
  await expect(tableRow).toContainText('path string');
  await tableRow.getByRole('link', { name: 'visits' }).click();

  await expect(page.getByRole('heading', { name: 'visits' })).toBeVisible();
  const schema = page.getByRole('table', { name: 'Schema' });
  await expect(schema.getByRole('row')).toHaveCount(4);
  const expected: [string, string][] = [
    ['time', 'long'],
    ['path', 'string'],
    ['ms', 'long'],
  ];
  for (const [name, type] of expected) {
    await expect(schema.getByRole('row').filter({ hasText: name })).toContainText(type);
  }
  const tail = page.getByRole('table', { name: 'Newest rows' });
  await expect(tail.getByRole('row')).toHaveCount(13);
  await expect(tail.getByRole('row').nth(1)).toContainText('/page/11');
  await expect(tail.getByRole('row').nth(1)).toContainText('111');

  await expect(page.getByRole('link', { name: 'Import into this table' })).toHaveAttribute(
    'href',
    '/data/import?database=e2e_tables&table=visits',
  );
  await page.getByRole('link', { name: 'Query this table' }).click();
  await expect(page).toHaveURL(/\/data\/query\?database=e2e_tables&table=visits/);
  await expect(page.getByRole('textbox', { name: 'SQL query' })).toContainText('FROM visits');
});
