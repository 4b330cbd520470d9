import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import {
  createDatabase,
  csvWithBadNumbers,
  dragFiles,
  dropFiles,
  jsonLinesWithLateKey,
  showTable,
} from './import-fixtures';

/** The import wizard reads the whole file before anything is encoded: no key is lost, no bad cell hidden. */

const select = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();
const back = (page: Page) => page.getByRole('button', { name: 'Back', exact: true }).click();

/** From the time step: choose the database, create the table, encode. */
async function targetAndEncode(page: Page, database: string, table: string) {
  await next(page);
  await select(page, 'Database').click();
  await page.getByRole('option', { name: database }).click();
  await page.getByLabel('New table name').fill(table);
  await page.getByRole('button', { name: 'Create table' }).click();
  await expect(page.getByText(/Rows will be added to/)).toContainText(table);
  await page.getByRole('button', { name: 'Check and encode' }).click();
}

/** The stepper's last step, "Import" (its number is replaced by a tick when complete). */
const importStep = (page: Page) => page.getByRole('button', { name: /^\d?\s*Import$/ });

/** Upload, perform and commit `rows` rows; the last step is ticked only after the commit. */
async function uploadAndCommit(page: Page, rows: string) {
  await page.getByRole('button', { name: `Upload ${rows} rows` }).click();
  await expect(importStep(page)).toHaveCount(1);
  await expect(importStep(page)).not.toHaveAttribute('data-completed');
  await page.getByRole('button', { name: `Commit ${rows} records` }).click();
  await expect(page.getByText('Import complete')).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('a JSON Lines key that first appears in row 5,000 is found, listed with its rows, and imported', async ({
  page,
}) => {
  await createDatabase(page, 'e2e_late');
  await page.goto('/data/import');
  await dropFiles(page, 'wizard-drop-area', [jsonLinesWithLateKey(6000, 5000)]);
  await expect(page.getByRole('table', { name: 'Files to import' })).toContainText('6,000 rows, 3 keys');
  await next(page);

  const keys = page.getByRole('table', { name: 'Keys found in the files' });
  const late = keys.getByRole('row', { name: /extra_note/ });
  await expect(late).toContainText('501 of 6,000');
  await expect(late).toContainText('first in row 5,000 of events.jsonl');
  await expect(late).toContainText('extra_note (string)');
  await expect(keys.getByRole('row', { name: /^id/ })).toContainText('6,000 of 6,000');
  await expect(page.getByText('0 keys left out')).toBeVisible();
  await next(page);
  await expect(select(page, 'Time column')).toHaveValue('ts');
  await targetAndEncode(page, 'e2e_late', 'events');
  await expect(page.getByText('6,000 rows read: 6,000 to import, 0 rejected')).toBeVisible();
  await uploadAndCommit(page, '6,000');

  // The finish: the row count, the stepper complete, a link to the table and a ready query.
  await expect(page.getByLabel('Rows imported')).toHaveText('6,000 records were added to e2e_late.events.');
  await expect(page.getByLabel('Import summary')).toContainText('0 keys left out');
  await expect(importStep(page)).toHaveAttribute('data-completed', 'true');
  const table = await showTable(page, 'e2e_late', 'events');
  expect(table.count).toBe(6000);
  expect(JSON.parse(table.schema)).toEqual([
    ['id', 'long'],
    ['extra_note', 'string'],
  ]);
  await page.getByRole('link', { name: 'Query events' }).click();
  await expect(page).toHaveURL(/\/data\/query\?database=e2e_late&table=events$/);
  await expect(page.getByRole('textbox').first()).toContainText('FROM events');
});

test('a late JSON Lines key left out by the user is listed as left out, not dropped silently', async ({ page }) => {
  await createDatabase(page, 'e2e_left');
  await page.goto('/data/import');
  await dropFiles(page, 'wizard-drop-area', [jsonLinesWithLateKey(6000, 5000)]);
  await next(page);
  await page.getByLabel('Import column extra_note').uncheck();
  await expect(
    page.getByRole('table', { name: 'Keys found in the files' }).getByRole('row', { name: /extra_note/ }),
  ).toContainText('left out');
  await expect(page.getByText('1 key left out: extra_note').first()).toBeVisible();
  await next(page);
  await targetAndEncode(page, 'e2e_left', 'events');
  await expect(page.getByLabel('Fixes and keys left out')).toContainText('1 key left out: extra_note');
  await uploadAndCommit(page, '6,000');
  await expect(page.getByLabel('Import summary')).toContainText('1 key left out: extra_note');
  const table = await showTable(page, 'e2e_left', 'events');
  expect(JSON.parse(table.schema)).toEqual([['id', 'long']]);
});

test('1 % bad numbers are flagged before encoding, and each bulk fix does what it says', async ({ page }) => {
  await createDatabase(page, 'e2e_fix');
  await page.goto('/data/import');
  await dropFiles(page, 'wizard-drop-area', [csvWithBadNumbers(1000)]);
  await next(page);

  // Not every cell is a number, so the type that fits all is string; long is offered for the 99 % that fit.
  const amount = page.getByRole('table', { name: 'Keys found in the files' }).getByRole('row', { name: /^amount/ });
  await expect(amount).toContainText('long 99 % · double 99 % · string 100 %');
  await expect(select(page, 'Type of column amount')).toHaveValue('string');
  await expect(page.getByTestId('bad-cells')).toHaveCount(0);
  await page.getByRole('button', { name: 'Use long for amount (99 % fit)' }).click();
  await expect(select(page, 'Type of column amount')).toHaveValue('long');

  // Flagged before anything is encoded: the count and the first cells with their rows.
  const flagged = page.getByLabel('Cells of amount that will not convert');
  await expect(flagged).toContainText('amount: 10 of 1,000 cells will not convert to long');
  await expect(flagged).toContainText('amounts.csv row 100: "N/A" · amounts.csv row 200: "N/A"');

  // Fix 1: set the cells to null; every row is imported.
  await flagged.getByText('Set those cells to null').click();
  await next(page);
  await targetAndEncode(page, 'e2e_fix', 'amounts');
  await expect(page.getByText('1,000 rows read: 1,000 to import, 0 rejected')).toBeVisible();
  await expect(page.getByLabel('Fixes and keys left out')).toContainText('0 rows skipped, 10 cells set to null');

  // Fix 2: skip the rows.
  await back(page);
  await back(page);
  await back(page);
  await flagged.getByText('Skip those rows').click();
  await next(page);
  await next(page);
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('1,000 rows read: 990 to import, 0 rejected')).toBeVisible();
  await expect(page.getByLabel('Fixes and keys left out')).toContainText('10 rows skipped, 0 cells set to null');
  await expect(page.getByRole('table', { name: 'Rejected rows' })).toContainText('amount: "N/A" is not a whole number');

  // Fix 3: change the type to one every cell fits.
  await back(page);
  await back(page);
  await back(page);
  await flagged.getByRole('button', { name: 'Change the type to string' }).click();
  await expect(select(page, 'Type of column amount')).toHaveValue('string');
  await expect(page.getByTestId('bad-cells')).toHaveCount(0);
  await next(page);
  await next(page);
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('1,000 rows read: 1,000 to import, 0 rejected')).toBeVisible();
  await expect(page.getByLabel('Fixes and keys left out')).toContainText('0 rows skipped, 0 cells set to null');
  await uploadAndCommit(page, '1,000');
  await expect(page.getByLabel('Import summary')).toContainText('0 rows rejected, 0 rows skipped, 0 cells set to null');
  const table = await showTable(page, 'e2e_fix', 'amounts');
  expect(table.count).toBe(1000);
  expect(JSON.parse(table.schema)).toEqual([
    ['id', 'long'],
    ['amount', 'string'],
  ]);
});

test('dragging a file over any data page highlights the drop, and it goes away when the file leaves', async ({
  page,
}) => {
  const file = csvWithBadNumbers(3);
  for (const path of ['/data/databases', '/data/query', '/data/jobs', '/data/bulk-loads', '/data/connections']) {
    await page.goto(path);
    const highlight = page.getByTestId('import-drop-highlight');
    await expect(highlight).toHaveCount(0);
    // Over the navigation, outside the page's own area: the whole window takes the drop, so it lights up.
    const nav = page.getByRole('button', { name: 'Sign out' });
    await dragFiles(page, nav, 'dragenter', [file]);
    await dragFiles(page, nav, 'dragover', [file]);
    await expect(highlight).toBeVisible();
    await expect(highlight).toContainText('Drop files to import them');
    await dragFiles(page, nav, 'dragleave', [file]);
    await expect(highlight).toHaveCount(0);
  }

  // The wizard's files step: the drop area lights up while a file is over the window.
  await page.goto('/data/import');
  const area = page.getByTestId('wizard-drop-area');
  await expect(area).not.toHaveAttribute('data-highlighted');
  await dragFiles(page, page.getByRole('button', { name: 'Sign out' }), 'dragenter', [file]);
  await expect(area).toHaveAttribute('data-highlighted', 'true');
  // Dropped: the file is added once, and the highlight ends.
  await dragFiles(page, area, 'dragenter', [file]);
  await dragFiles(page, area, 'drop', [file]);
  await expect(page.getByRole('table', { name: 'Files to import' }).getByRole('row')).toHaveCount(2);
  await expect(area).not.toHaveAttribute('data-highlighted');
});
