import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * The living demo: this server starts with SVC_DEMO=0 so the other specs begin on an empty account; this
 * spec creates the demo through its API (what the first start does), finds it in the console, hides its
 * notice, and deletes it from the Overview with one action.
 */

const CONSOLE = { 'x-svc-console': '1' };

test('a one-line demo notice leads to the Overview, hides for good, and the demo is deleted in one action', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page);
  const notice = page.getByRole('region', { name: 'Demo data notice' });
  const panel = page.getByRole('region', { name: 'This account holds demo data' });
  await expect(notice).toHaveCount(0);
  await expect(panel).toHaveCount(0);

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

  // On every other page: one line, not a list that pushes the page down.
  await page.goto('/data/databases');
  await expect(notice).toContainText('This account holds demo data');
  expect((await notice.boundingBox())?.height).toBeLessThan(48);
  const shot = testInfo.outputPath('demo-notice.png');
  await page.screenshot({ path: shot, animations: 'disabled' });
  await testInfo.attach('demo-notice', { path: shot, contentType: 'image/png' });
  await expect(page.getByRole('link', { name: 'demo_shop', exact: true })).toBeVisible();
  await page.goto('/journeys');
  await expect(page.getByRole('link', { name: 'Demo · Welcome to repeat purchase' })).toBeVisible();

  // The notice leads to the Overview, which describes the demo (and shows no notice of its own).
  await notice.getByRole('link', { name: /on the Overview/ }).click();
  await expect(page).toHaveURL(/\/overview#demo-data$/);
  await expect(panel).toContainText('Database demo_shop');
  await expect(panel).toContainText('Journey “Demo · Welcome to repeat purchase”');
  await expect(notice).toHaveCount(0);

  // Hidden by this user, it stays hidden on the next visit; the Overview still has the demo.
  await page.goto('/data/databases');
  await notice.getByRole('button', { name: 'Hide the demo data notice' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('link', { name: 'demo_shop', exact: true })).toBeVisible();
  await expect(notice).toHaveCount(0);

  await page.goto('/overview');
  await panel.getByRole('button', { name: 'Delete demo data' }).click();
  await panel.getByRole('button', { name: 'Delete all demo data' }).click();
  await expect(panel).toHaveCount(0);
  await page.goto('/journeys');
  await expect(page.getByRole('heading', { name: 'Journeys', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Demo · Welcome to repeat purchase' })).toHaveCount(0);
  await page.goto('/data/databases');
  await expect(page.getByRole('heading', { name: 'Databases' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'demo_shop', exact: true })).toHaveCount(0);
  const after = await page.request.get('/entities/demo', { headers: { authorization } });
  expect(await after.json()).toEqual({ items: [] });
});
