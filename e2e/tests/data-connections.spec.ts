import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const SECRET = 'v3ry-s3cret-pass';
const TOKEN = 'tok_2b9f0c1e';

test('a result connection is saved, shown only with its secrets masked, and deleted', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByRole('heading', { name: 'Result connections' })).toBeVisible();
  await expect(page.getByText('There are no result connections yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Create connection' }).click();
  const create = page.getByRole('dialog', { name: 'Create result connection' });
  await create.getByLabel('Name').fill('reporting');
  await create
    .getByLabel('URL')
    .fill(`postgresql://reporter:${SECRET}@db.example.com/analytics/out?api_key=${TOKEN}&sslmode=require`);
  await create.getByRole('button', { name: 'Save connection' }).click();
  await expect(create).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: 'reporting' });
  await expect(row).toContainText('postgresql://reporter:***@db.example.com/analytics/out?api_key=***&sslmode=require');
  expect(await page.content()).not.toContain(SECRET);
  expect(await page.content()).not.toContain(TOKEN);
  await page.reload();
  await expect(row).toContainText('reporter:***@');
  expect(await page.content()).not.toContain(SECRET);

  // A URL without a scheme is refused with the server's reason. (Private addresses are allowed on the
  // browser tests' server, SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1; the API tests cover their refusal.)
  await page.getByRole('button', { name: 'Create connection' }).click();
  await create.getByLabel('Name').fill('internal');
  await create.getByLabel('URL').fill('reports.example.com/db/table');
  await create.getByRole('button', { name: 'Save connection' }).click();
  await expect(create.getByRole('alert')).toContainText('must start with a scheme');
  await create.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: 'Delete reporting' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete result connection' });
  await expect(confirm).toContainText('reporting');
  await confirm.getByRole('button', { name: 'Delete connection' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('There are no result connections yet.')).toBeVisible();
});
