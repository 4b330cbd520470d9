import { expect, test } from '@playwright/test';
import { insertRows } from './data-seed';
import { openScheduleDialog, signIn } from './helpers';

/** Scheduled queries made from the editor, paused and resumed, run, edited, their runs linking to jobs, deleted. */

const DB = 'e2e_sched_web';
const NAME = 'e2e_daily_visits';

test('schedules a query from the editor and manages it from the list', async ({ page }) => {
  // A first table on a fresh server takes a while on a loaded machine: seeded inside the test's own time.
  test.setTimeout(150_000);
  // Sign-in hashes the password at full cost: on a loaded machine that can take longer than the helper waits.
  await signIn(page).catch(() =>
    expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 60_000 }),
  );
  await insertRows(page, DB, 'visits', [{ time: 1_700_000_000, path: '/home' }]);
  const dialog = await openScheduleDialog(page, DB, 'SELECT count(1) AS n FROM visits', NAME);
  await dialog.getByRole('combobox', { name: 'Runs' }).click();
  await page.getByRole('option', { name: 'Custom cron' }).click();
  await dialog.getByRole('textbox', { name: 'Cron' }).fill('61 * * * *');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  // The server's refusal shows at the cron field, and nothing is made.
  await expect(dialog.getByText(/"cron" is not a valid schedule/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Cron' }).fill('0 6 * * *');
  await dialog.getByRole('combobox', { name: 'Time zone' }).fill('Asia/Tok');
  await page.getByRole('option', { name: 'Asia/Tokyo' }).click();
  await dialog.getByRole('textbox', { name: /^Retries/ }).fill('2');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();

  // Its page: no runs yet.
  await expect(page).toHaveURL(new RegExp(`/data/schedules/${NAME}$`));
  await expect(page.getByText('No runs yet.')).toBeVisible();

  await page.getByRole('link', { name: 'All scheduled queries' }).click();
  const row = page.getByRole('table', { name: 'Scheduled queries' }).getByRole('row').filter({ hasText: NAME });
  await expect(row).toContainText('0 6 * * *');
  await expect(row).toContainText('Asia/Tokyo, 2 retries');

  await row.getByRole('button', { name: `Pause ${NAME}` }).click();
  await expect(row.getByText('paused', { exact: true }).first()).toBeVisible();
  await row.getByRole('button', { name: `Resume ${NAME}` }).click();
  await expect(row.getByRole('button', { name: `Pause ${NAME}` })).toBeVisible();

  await row.getByRole('button', { name: `Edit ${NAME}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit schedule ${NAME}` });
  await edit.getByRole('combobox', { name: 'Runs' }).click();
  await page.getByRole('option', { name: 'Hourly (at minute 0)' }).click();
  await edit.getByRole('button', { name: 'Save schedule' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('@hourly');

  await row.getByRole('button', { name: `Run ${NAME} now` }).click();
  await expect(row.getByRole('link', { name: /^Job \d+$/ })).toBeVisible();
  await row.getByRole('link', { name: `Runs of ${NAME}` }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByText('success')).toBeVisible({ timeout: 30_000 });
  await runs.getByRole('link', { name: /^Job \d+$/ }).click();
  await expect(page).toHaveURL(/\/data\/jobs\/\d+$/);

  await page.goto('/data/schedules');
  await row.getByRole('button', { name: `Delete ${NAME}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete schedule' }).click();
  await expect(row).toHaveCount(0);
});
