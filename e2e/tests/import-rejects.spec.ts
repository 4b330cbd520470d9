import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { createDatabase, dropFiles } from './import-fixtures';

/**
 * What the import leaves out agrees with its download: rows rejected and rows skipped by the user's fix are
 * counted apart, and the download holds exactly those; a row with too few fields says so.
 */

const select = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

/** 1,000 rows of five fields; every 100th amount is "N/A", and rows 500 and 1,000 lost all but two fields. */
function csvWithShortRows() {
  const lines = ['ts,id,amount,country,plan'];
  for (let n = 1; n <= 1000; n++) {
    if (n % 500 === 0) lines.push(`${1704067200 + n},${n}`);
    else lines.push(`${1704067200 + n},${n},${n % 100 === 0 ? 'N/A' : n * 3},JP,gold`);
  }
  return { name: 'short.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

test('the summary counts rejected and skipped rows apart, the download holds them all, and a short row names its fields', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await createDatabase(page, 'e2e_short');
  await page.goto('/data/import');
  await dropFiles(page, 'wizard-drop-area', [csvWithShortRows()]);
  await next(page);
  await page.getByRole('button', { name: /^Use long for amount/ }).click();
  await page.getByLabel('Cells of amount that will not convert').getByText('Skip those rows').click();
  await next(page);
  await next(page);
  await select(page, 'Database').click();
  await page.getByRole('option', { name: 'e2e_short' }).click();
  await page.getByLabel('New table name').fill('short_rows');
  await page.getByRole('button', { name: 'Create table' }).click();
  await expect(page.getByText(/Rows will be added to/)).toContainText('short_rows');
  await page.getByRole('button', { name: 'Check and encode' }).click();

  // 8 "N/A" rows skipped by the fix (rows 500 and 1,000 are short, not "N/A"), 2 short rows rejected.
  await expect(page.getByText('1,000 rows read: 990 to import, 2 rejected, 8 skipped by your fixes')).toBeVisible();
  const table = page.getByRole('table', { name: 'Rejected rows' });
  await expect(table.getByRole('row', { name: /500/ })).toContainText('rejectedrow 500 has 2 fields, the header has 5');
  await expect(table.getByRole('row', { name: /100/ }).first()).toContainText('skipped');
  await expect(page.getByText('the time is empty')).toHaveCount(0);
  await page.screenshot({ path: '../docs/screenshots/import-rows-left-out.png' });

  const button = page.getByRole('button', { name: 'Download the 10 rows left out (2 rejected, 8 skipped) as CSV' });
  const download = page.waitForEvent('download');
  await button.click();
  const csv = await readFile((await (await download).path()) as string, 'utf8');
  // One line per row left out (no value here holds a line break), each saying which and why.
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe('file,row,left out as,reason,ts,id,amount,country,plan');
  expect(lines).toHaveLength(1 + 10);
  expect(lines.filter((l) => l.includes(',rejected,'))).toEqual([
    'short.csv,500,rejected,"row 500 has 2 fields, the header has 5",1704067700,500,,,',
    'short.csv,1000,rejected,"row 1000 has 2 fields, the header has 5",1704068200,1000,,,',
  ]);
  expect(lines.filter((l) => l.includes(',skipped,'))).toHaveLength(8);
});
