import { expect, type Page, test } from '@playwright/test';
import { insertRows } from './data-seed';
import { signIn } from './helpers';

/** Charts of a query result: the Chart tab beside the grid, its type and columns, and a 100,000-row result. */

const DB = 'e2e_chart';

test.beforeEach(async ({ page }) => {
  await signIn(page);
  const seeded = await page.evaluate(async (path) => (await fetch(path)).status === 200, `/v3/database/show/${DB}`);
  if (!seeded) {
    const sales = [
      ['a', 'north', 10],
      ['a', 'south', 5],
      ['b', 'north', 7],
      ['c', 'south', 3],
      ['c', 'south', 4],
    ].map(([product, region, amount], i) => ({ time: 1_700_000_000 + i, product, region, amount }));
    await insertRows(page, DB, 'sales', sales);
    await insertRows(
      page,
      DB,
      'digits',
      Array.from({ length: 10 }, (_, n) => ({ time: 1_700_000_000, n })),
    );
  }
});

async function runAndOpenChart(page: Page, sql: string) {
  await page.goto(`/data/query?database=${DB}`);
  await page.getByRole('textbox', { name: 'SQL query' }).fill(sql);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status', { name: /success/ })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Chart' }).click();
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('charts a result as bars, by a series, as lines and as a pie', async ({ page }) => {
  test.setTimeout(60_000);
  await runAndOpenChart(page, 'SELECT product, region, amount FROM sales');

  // The first text column is x, the first number column y, summed.
  const bars = page.getByRole('figure', { name: 'Bar chart of Sum of amount by product, 3 points' });
  await expect(bars.locator('.recharts-bar-rectangle')).toHaveCount(3);
  for (const product of ['a', 'b', 'c']) await expect(bars.getByText(product, { exact: true })).toBeVisible();

  await choose(page, 'Series', 'region');
  const split = page.getByRole('figure', { name: 'Bar chart of Sum of amount by product and region, 3 points' });
  await expect(split.locator('.recharts-legend-wrapper')).toContainText('north');
  await expect(split.locator('.recharts-legend-wrapper')).toContainText('south');
  await expect(split.locator('.recharts-bar-rectangle')).toHaveCount(4);

  await page.getByText('Line', { exact: true }).click();
  const lines = page.getByRole('figure', { name: 'Line chart of Sum of amount by product and region, 3 points' });
  await expect(lines.locator('.recharts-line')).toHaveCount(2);

  await choose(page, 'Y', 'Count of rows');
  await page.getByText('Pie', { exact: true }).click();
  const pie = page.getByRole('figure', { name: 'Pie chart of Count of rows by product, 3 points' });
  await expect(pie.locator('.recharts-pie-sector')).toHaveCount(3);
  await expect(pie.locator('.recharts-legend-wrapper')).toContainText('a');

  // The grid is one click away, unchanged.
  await page.getByRole('tab', { name: 'Rows' }).click();
  await expect(page.getByRole('table', { name: /^Result of job/ }).getByRole('row')).toHaveCount(6);
});

test('charts all 100,000 rows of a result, merged into 500 ranges, and the page stays usable', async ({ page }) => {
  test.setTimeout(90_000);
  await runAndOpenChart(
    page,
    `SELECT a.n * 10000 + b.n * 1000 + c.n * 100 + d.n * 10 + e.n AS i, a.n + 1 AS tens_of_thousands
     FROM digits a CROSS JOIN digits b CROSS JOIN digits c CROSS JOIN digits d CROSS JOIN digits e`,
  );
  await expect(page.getByText(/^100,000 rows in 100,000 groups\. 100000 x values are shown as 100 ranges/)).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  const bars = page.getByRole('figure', { name: 'Bar chart of Sum of tens_of_thousands by i, 100 points' });
  await expect(bars.locator('.recharts-bar-rectangle')).toHaveCount(100);

  await page.getByText('Area', { exact: true }).click();
  const area = page.getByRole('figure', { name: 'Area chart of Sum of tens_of_thousands by i, 500 points' });
  await expect(area.locator('.recharts-area')).toHaveCount(1);
  await choose(page, 'Aggregate', 'Average');
  await expect(
    page.getByRole('figure', { name: 'Area chart of Average of tens_of_thousands by i, 500 points' }),
  ).toBeVisible();
});
