import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

const CONSOLE = { 'x-svc-console': '1' };

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('at 1440 px a sample of wide profiles scrolls inside its panel, and the page does not overflow', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const key = await page.request.post('/console-api/api-keys', {
    headers: CONSOLE,
    data: { type: 'master', name: 'Wide preview seeding' },
  });
  const auth = { authorization: `SVC1 ${((await key.json()) as { key: string }).key}` };
  const database = `wide_${Date.now().toString(36)}`;
  expect((await page.request.post(`/v3/database/create/${database}`, { headers: auth })).ok()).toBe(true);
  // Long values in six attributes: what the preview shows of each profile.
  const long = (what: string, i: number) => `${what}-${i}-with-a-long-value-nobody-wraps-${'x'.repeat(24)}`;
  const events = Array.from({ length: 5 }, (_, i) => ({
    customer_id: `customer-${i}-${'k'.repeat(20)}`,
    email: `customer.number.${i}.with.a.long.address@example-shop.test`,
    city: long('city', i),
    plan: long('plan', i),
    channel: long('channel', i),
    referrer: long('referrer', i),
    campaign: long('campaign', i),
    time: 1_700_000_000,
  }));
  expect((await page.request.post(`/${database}/customers`, { headers: auth, data: { events } })).ok()).toBe(true);
  const columns = ['email', 'city', 'plan', 'channel', 'referrer', 'campaign'];
  const created = await page.request.post('/audiences', {
    headers: auth,
    data: {
      name: `Wide profiles ${database}`,
      master: { parentDatabaseName: database, parentTableName: 'customers', parentKey: 'customer_id' },
      attributes: columns.map((c) => ({ name: c, parentColumn: c, type: 'string' })),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const id = ((await created.json()) as { id: string }).id;
  await expect
    .poll(
      async () => ((await (await page.request.get(`/audiences/${id}`)).json()) as { buildStatus: string }).buildStatus,
    )
    .toBe('success');

  await page.goto(`/parent-segments/${id}/segments/new`);
  await page.getByRole('button', { name: 'Add attribute condition' }).click();
  const condition = page.getByRole('group', { name: 'Condition 1', exact: true });
  await condition.getByLabel('Column', { exact: true }).selectOption('email');
  await condition.getByLabel('Operator', { exact: true }).selectOption({ label: 'contains' });
  await condition.getByLabel('Value', { exact: true }).fill('@');
  const sample = page.getByRole('table', { name: 'Sample profiles' });
  await expect(sample.getByRole('row')).toHaveCount(6);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
  // The sample itself is wider than its panel, and scrolls there (by keyboard too: the region takes focus).
  const region = page.getByRole('region', { name: 'Sample of matching profiles' });
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(region).toHaveAttribute('tabindex', '0');
  await page.screenshot({ path: '../docs/screenshots/segment-preview-1440.png' });
});
