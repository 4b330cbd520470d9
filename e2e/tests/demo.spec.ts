import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * The living demo: this server starts with SVC_DEMO=0 so the other specs begin on an empty account; this
 * spec creates the demo through its API (what the first start does), finds it in the console, and deletes
 * it with the banner's one action.
 */

const CONSOLE = { 'x-svc-console': '1' };

test('the demo banner says what is there, and the demo is deleted in one action', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await expect(page.getByRole('region', { name: 'Demo data' })).toHaveCount(0);

  const key = await page.request.post('/console-api/api-keys', {
    headers: CONSOLE,
    data: { type: 'master', name: 'Demo spec' },
  });
  expect(key.status(), await key.text()).toBe(200);
  const authorization = `SVC1 ${((await key.json()) as { key: string }).key}`;
  // With the session alone the demo cannot be created: its data goes in through the records API.
  const bySession = await page.request.post('/entities/demo', { headers: CONSOLE });
  expect(bySession.status()).toBe(400);
  const created = await page.request.post('/entities/demo', { headers: { authorization }, timeout: 90_000 });
  expect(created.status(), await created.text()).toBe(200);

  await page.goto('/data/databases');
  const banner = page.getByRole('region', { name: 'Demo data' });
  await expect(banner).toContainText('This account holds demo data');
  await expect(banner).toContainText('Database demo_shop');
  await expect(banner).toContainText('Journey “Demo · Welcome to repeat purchase”');
  await expect(page.getByRole('link', { name: 'demo_shop', exact: true })).toBeVisible();

  await page.goto('/journeys');
  await expect(page.getByRole('link', { name: 'Demo · Welcome to repeat purchase' })).toBeVisible();

  await banner.getByRole('button', { name: 'Delete demo data' }).click();
  await banner.getByRole('button', { name: 'Delete all demo data' }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Demo · Welcome to repeat purchase' })).toHaveCount(0);
  await page.goto('/data/databases');
  await expect(page.getByRole('heading', { name: 'Databases' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'demo_shop', exact: true })).toHaveCount(0);
  const after = await page.request.get('/entities/demo', { headers: { authorization } });
  expect(await after.json()).toEqual({ items: [] });
});
