import { expect, test } from '@playwright/test';
import { createBulkLoad, insertRows, issueQuery, runSchedule } from './data-seed';
import { signIn } from './helpers';

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('the jobs page lists jobs newest first, updates their status and filters them', async ({ page }) => {
  // Two databases, two query processes and five page loads: more than the default on a busy machine.
  test.slow();
  await insertRows(page, 'e2e_jobs_a', 'events', [{ time: 1_700_000_000, kind: 'a' }]);
  await insertRows(page, 'e2e_jobs_b', 'events', [{ time: 1_700_000_000, kind: 'b' }]);
  const ok = await issueQuery(page, 'e2e_jobs_a', 'SELECT kind, count(*) AS n FROM events GROUP BY kind');
  const failed = await issueQuery(page, 'e2e_jobs_b', 'SELECT nope FROM events');

  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  const jobs = page.getByRole('table', { name: 'Jobs' });
  const rowOf = (id: string) =>
    jobs.getByRole('row').filter({ has: page.getByRole('link', { name: id, exact: true }) });
  // Newest first; statuses arrive by polling.
  await expect(jobs.getByRole('row').nth(1)).toContainText(failed);
  await expect(jobs.getByRole('row').nth(2)).toContainText(ok);
  // The first query of a fresh server starts the query engine's process: on a loaded machine (the browser
  // tests share two cores) that takes longer than the default wait.
  await expect(rowOf(ok)).toContainText('success', { timeout: 60_000 });
  await expect(rowOf(failed)).toContainText('error');

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'error' }).click();
  await expect(page).toHaveURL(/status=error/);
  await expect(rowOf(failed)).toBeVisible();
  await expect(rowOf(ok)).toHaveCount(0);

  // The database and type filters, chosen on the page.
  await page.goto('/data/jobs');
  await page.getByRole('combobox', { name: 'Database' }).click();
  await page.getByRole('option', { name: 'e2e_jobs_a', exact: true }).click();
  await expect(page).toHaveURL(/database=e2e_jobs_a/);
  await expect(rowOf(ok)).toBeVisible();
  await expect(rowOf(failed)).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Query (presto)', exact: true }).click();
  await expect(page).toHaveURL(/type=presto/);
  await expect(rowOf(ok)).toBeVisible();
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Bulk import', exact: true }).click();
  await expect(page).toHaveURL(/type=bulk_import/);
  await expect(page.getByText('No jobs match.')).toBeVisible();

  // The job page: query, figures, result preview, debug output.
  await page.goto('/data/jobs');
  await rowOf(ok).getByRole('link', { name: ok, exact: true }).click();
  await expect(page.getByRole('heading', { name: `Job ${ok}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Query' })).toContainText('GROUP BY kind');
  const result = page.getByRole('table', { name: `Result of job ${ok}` });
  await expect(result.getByRole('row').nth(1)).toContainText('a');
  await expect(page.getByLabel('Job output')).toContainText('1 rows');

  // The job's API url (/jobs/:id) opens the same page.
  await page.goto(`/jobs/${failed}`);
  await expect(page).toHaveURL(new RegExp(`/data/jobs/${failed}$`));
  await expect(page.getByLabel('Job errors')).toContainText('no such column: nope');
});

test('a scheduled query’s run names its schedule in the job list and on its page', async ({ page }) => {
  await insertRows(page, 'e2e_sched', 'events', [{ time: 1_700_000_000, kind: 'a' }]);
  const id = await runSchedule(
    page,
    'nightly_kinds',
    { cron: '0 3 * * *', query: 'SELECT count(*) AS n FROM events', database: 'e2e_sched', type: 'presto' },
    1_767_225_600,
  );
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  const row = page
    .getByRole('table', { name: 'Jobs' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: id, exact: true }) });
  await expect(row).toContainText('Schedule nightly_kinds');
  await row.getByRole('link', { name: id, exact: true }).click();
  await expect(page.getByText('a run of schedule nightly_kinds for 2026-01-01 00:00:00 UTC')).toBeVisible();
});

test('bulk loads list their schedule, target and last job; the session page masks credentials', async ({ page }) => {
  await insertRows(page, 'e2e_loads', 'orders', [{ time: 1_700_000_000, total: 1 }]);
  await createBulkLoad(page, {
    name: 'nightly_orders',
    database: 'e2e_loads',
    table: 'orders',
    cron: '0 3 * * *',
    timezone: 'UTC',
    config: { in: { type: 'postgresql', host: 'db.example.com', user: 'loader', password: 'pg-s3cret' } },
  });
  await page.getByRole('link', { name: 'Bulk loads' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'nightly_orders' }) });
  await expect(row).toContainText('postgresql');
  await expect(row).toContainText('0 3 * * * (UTC)');
  await expect(row).toContainText('e2e_loads.orders');
  await expect(row).toContainText('never run');

  await row.getByRole('link', { name: 'nightly_orders' }).click();
  const config = page.getByLabel('Session configuration');
  await expect(config).toContainText('"host": "db.example.com"');
  await expect(config).toContainText('"password": "***"');
  expect(await page.content()).not.toContain('pg-s3cret');
  await expect(page.getByText('This session has not run yet.')).toBeVisible();
});
