import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a full load of a lazily loaded page warns nothing about a missing HydrateFallback', async ({ page }) => {
  await signIn(page);
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  for (const path of ['/journeys', '/data/query', '/login']) {
    await page.goto(path);
    await expect(
      page
        .getByRole('heading', { level: 1 })
        .or(page.getByRole('button', { name: 'Sign in' }))
        .first(),
    ).toBeVisible();
  }
  expect(messages.filter((m) => /HydrateFallback/i.test(m))).toEqual([]);
});
