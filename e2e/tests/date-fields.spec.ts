import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('the audit log filters by dates typed as ISO text, refused with a message when written otherwise', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/settings/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const from = page.getByRole('textbox', { name: 'From' });
  await expect(from).not.toHaveAttribute('type', 'datetime-local');
  await expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD HH:MM');
  // The sign-in just made is in the log.
  await expect(page.getByRole('cell', { name: /Password sign-in/ }).first()).toBeVisible();

  await from.fill('12/31/2026 02:30 PM');
  await from.press('Tab');
  await expect(
    page.getByText('Write the date as YYYY-MM-DD, or YYYY-MM-DD HH:MM with a time', { exact: false }),
  ).toBeVisible();
  await expect(page.getByText('No entry matches these filters.')).toHaveCount(0);

  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  await from.fill(day);
  await from.press('Enter');
  await expect(from).toHaveValue(`${day} 00:00`);
  await expect(page.getByText('No entry matches these filters.')).toBeVisible();
  await page.screenshot({ path: '../docs/screenshots/audit-log-date-filter.png' });
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(from).toHaveValue('');
  await expect(page.getByText('No entry matches these filters.')).toHaveCount(0);
});
