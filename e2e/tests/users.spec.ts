import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL } from '../env';
import { signIn, signOut } from './helpers';

test('an administrator adds a user, who is no administrator, and removes them', async ({ page }) => {
  const email = `grace-${Date.now()}@e2e.test`;
  const password = 'grace password 1';
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();

  // You cannot remove yourself: the button says why instead of acting.
  const own = page.getByRole('row').filter({ hasText: ADMIN_EMAIL });
  const ownRemove = own.getByRole('button', { name: /^Remove/ });
  await expect(ownRemove).toHaveAttribute('aria-disabled', 'true');
  await ownRemove.hover();
  await expect(page.getByRole('tooltip')).toHaveText('You cannot remove yourself.');

  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Enter a name.')).toBeVisible();
  await expect(dialog.getByText('Enter a valid e-mail address.')).toBeVisible();

  await dialog.getByLabel('Name', { exact: true }).fill('Grace Hopper');
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill('short');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('Use at least 8 characters for the password.')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('Password123');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText(/This password is too common/)).toBeVisible();
  await expect(dialog.getByText(/At least 8 characters, and not a commonly used password/)).toBeVisible();

  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Grace Hopper');

  // The new user signs in: no Users in the navigation, and its address says the page is for administrators.
  await signOut(page);
  await signIn(page, email, password);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }),
  ).toHaveCount(0);
  await page.goto('/settings/users');
  await expect(page.getByText('Only administrators can manage users')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await signOut(page);

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
  await row.getByRole('button', { name: 'Remove Grace Hopper' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove user' });
  await expect(confirm).toContainText(`Grace Hopper (${email})`);
  await confirm.getByRole('button', { name: 'Remove user' }).click();
  await expect(row).toHaveCount(0);
});
