import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a new write-only key is named, shown once, then only masked, and can be revoked', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page);
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();

  await page.getByRole('button', { name: 'Create key' }).click();
  const create = page.getByRole('dialog', { name: 'Create API key' });
  // The type that can do the least is the one chosen to begin with.
  await expect(create.getByRole('radio', { name: /^Write-only/ })).toBeChecked();
  await create.getByRole('button', { name: 'Create key' }).click();
  await expect(create.getByText('Give the key a name that says where it is used.')).toBeVisible();
  await create.getByLabel('Name').fill('Web shop SDK');
  await create.getByLabel('Expires').selectOption({ label: 'In 30 days' });
  await create.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
  await expect(shown).toContainText('shown only once');
  const key = await shown.getByLabel('New API key').inputValue();
  const [id, secret] = key.split('/');
  expect(id).toMatch(/^\d+$/);
  expect(secret?.length).toBeGreaterThanOrEqual(32);

  await shown.getByRole('button', { name: 'Copy key' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  await page.reload();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: new RegExp(`^${id}/`) }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Web shop SDK');
  await expect(row).toContainText('Write-only');
  await expect(row).toContainText(/in 4 weeks|next month/);
  await expect(row).toContainText('never');
  const masked = (await row.locator('code').textContent())?.trim() ?? '';
  expect(masked).toMatch(new RegExp(`^${id}/`));
  expect(masked).not.toContain(secret);
  // Nowhere on the page, not even in an attribute or a hidden input.
  expect(await page.content()).not.toContain(secret);

  await row.getByRole('button', { name: `Revoke ${masked}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText(masked);
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByText(masked)).toHaveCount(0);
});

test('the create dialog opens on Write-only again after a master key was made', async ({ page }, testInfo) => {
  await signIn(page);
  await page.goto('/settings/api-keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  let create = page.getByRole('dialog', { name: 'Create API key' });
  await create.getByLabel('Name').fill('Nightly export');
  await create.getByText('Master', { exact: true }).click();
  await expect(create.getByRole('radio', { name: /^Master/ })).toBeChecked();
  await create.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Nightly export' })).toContainText('Master');

  await page.getByRole('button', { name: 'Create key' }).click();
  create = page.getByRole('dialog', { name: 'Create API key' });
  await expect(create.getByRole('radio', { name: /^Write-only/ })).toBeChecked();
  await expect(create.getByLabel('Name')).toHaveValue('');
  const dialog = testInfo.outputPath('api-key-create.png');
  await page.screenshot({ path: dialog, animations: 'disabled' });
  await testInfo.attach('api-key-create', { path: dialog, contentType: 'image/png' });
  await create.getByRole('button', { name: 'Cancel' }).click();
  // Administrators choose whose keys they see.
  await page.getByLabel('Keys of').selectOption({ label: 'Everyone’s keys' });
  await expect(page.getByRole('columnheader', { name: 'Acts as' })).toBeVisible();
  const list = testInfo.outputPath('api-keys-everyone.png');
  await page.screenshot({ path: list, animations: 'disabled', fullPage: true });
  await testInfo.attach('api-keys-everyone', { path: list, contentType: 'image/png' });
});
