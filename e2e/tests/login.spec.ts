import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL } from '../env';
import { signIn } from './helpers';

test('a wrong password shows the reason and stays on the login page', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();

  const alert = page.getByRole('alert').filter({ hasText: 'Could not sign in' });
  await expect(alert).toContainText(/e-mail address or password is incorrect/i);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
});

test('empty fields are explained before anything is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter the e-mail address you sign in with.')).toBeVisible();
  await expect(page.getByText('Enter your password.')).toBeVisible();
});

test('a page opened without a session asks to sign in, then opens', async ({ page }) => {
  await page.goto('/settings/users');
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Fusers$/);
  await page.getByLabel('E-mail', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('e2e password 123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
});

test('an unknown address shows a not-found page inside the frame', async ({ page }) => {
  await signIn(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'API keys', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the overview' }).click();
  await expect(page).toHaveURL(/\/overview$/);
});
