import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL } from '../env';
import { signIn } from './helpers';

test('after signing out, Back does not show account data', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }).click();
  const firstKey = page.getByRole('table').locator('code').first();
  await expect(firstKey).toBeVisible();
  const masked = (await firstKey.textContent())?.trim() ?? '';
  expect(masked).not.toBe('');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('cell', { name: ADMIN_EMAIL })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(page.getByText(masked)).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // Back lands on the users page, which asks the server again, is refused and returns to the login page.
  await page.goBack();
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fusers$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText(ADMIN_EMAIL)).toHaveCount(0);
  await expect(page.getByText(masked)).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);

  const me = await page.request.get('/console-api/me');
  expect(me.status()).toBe(401);
});
