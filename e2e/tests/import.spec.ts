import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import {
  bulkImportSessions,
  createDatabase,
  csvWithOneBadRow,
  dropFiles,
  jsonLines,
  msgpackPart,
  showTable,
} from './import-fixtures';

/** A Mantine select: its combobox input, which holds the chosen label as its value. */
const select = (page: Page, name: string) => page.getByRole('combobox', { name, exact: true });
const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

/** Target step: create the database (unless it exists) and the table in place. */
async function createTarget(page: Page, database: string | null, table: string) {
  if (database) {
    await page.getByLabel('New database name').fill(database);
    await page.getByRole('button', { name: 'Create database' }).click();
  }
  await page.getByLabel('New table name').fill(table);
  await page.getByRole('button', { name: 'Create table' }).click();
  await expect(page.getByText(/Rows will be added to/)).toContainText(table);
}

/** Upload step onwards: upload, perform, commit; returns when the import is complete. */
async function uploadAndCommit(page: Page, rows: number, errors = 0) {
  await page.getByRole('button', { name: `Upload ${rows} rows` }).click();
  await expect(page.getByLabel('Valid records')).toHaveText(String(rows - errors));
  await expect(page.getByLabel('Error records')).toHaveText(String(errors));
  if (errors > 0) {
    // The records the server refused can be downloaded, decoded to JSON Lines.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download error records (JSON Lines)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/-error-records\.jsonl$/);
  }
  await page.getByRole('button', { name: `Commit ${rows - errors} records` }).click();
  await expect(page.getByText('Import complete')).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('a CSV dropped on the data pages: one rejected row is shown, the rest lands in a new table', async ({ page }) => {
  await page.goto('/data/databases');
  await dropFiles(page, 'import-drop-zone', [csvWithOneBadRow(10)]);
  await expect(page).toHaveURL(/\/data\/import$/);
  await expect(page.getByRole('table', { name: 'Files to import' })).toContainText('orders.csv');
  await expect(select(page, 'File type of orders.csv')).toHaveValue('CSV');
  await next(page);

  // Columns: types inferred from the data.
  await expect(select(page, 'Type of column amount')).toHaveValue('long');
  await expect(select(page, 'Type of column user')).toHaveValue('string');
  await next(page);

  // Time: the ISO column is found, and the bad row shows up in the sample.
  await expect(select(page, 'Time column')).toHaveValue('event_time');
  await expect(select(page, 'Form')).toHaveValue('ISO 8601');
  await expect(page.getByText('1 of 10 sample rows have no valid time')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Time conversion of the sample rows' })).toContainText(
    'Rejected: "not a date" is not an ISO 8601 date',
  );
  await next(page);

  await createTarget(page, 'e2e_shop', 'orders');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('10 rows read: 9 to import, 1 rejected')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Rejected rows' })).toContainText('not a date');
  await uploadAndCommit(page, 9);

  await page.getByRole('link', { name: 'Open e2e_shop.orders' }).click();
  await expect(page).toHaveURL(/\/data\/databases\/e2e_shop\/tables\/orders$/);
  const schema = page.getByRole('table', { name: 'Schema' });
  await expect(schema.getByRole('row', { name: /amount\s*long/ })).toBeVisible();
  await expect(schema.getByRole('row', { name: /user\s*string/ })).toBeVisible();
  await expect(schema.getByRole('row', { name: /country\s*string/ })).toBeVisible();
  await expect(page.getByText('Records', { exact: true }).locator('..')).toContainText('9');

  const table = await showTable(page, 'e2e_shop', 'orders');
  expect(table.count).toBe(9);
  expect(JSON.parse(table.schema)).toEqual([
    ['user', 'string'],
    ['amount', 'long'],
    ['country', 'string'],
  ]);
  // One session for this import (other spec files may have left committed sessions of their own).
  expect((await bulkImportSessions(page)).filter((name) => name.startsWith('console_orders_'))).toHaveLength(1);
});

test('JSON Lines go into a new table, with Unix-second times and a double column', async ({ page }) => {
  await createDatabase(page, 'e2e_web');
  await page.goto('/data/import');
  await dropFiles(page, 'wizard-drop-area', [jsonLines(25)]);
  await expect(select(page, 'File type of clicks.jsonl')).toHaveValue('JSON Lines');
  await next(page);
  await expect(select(page, 'Type of column ms')).toHaveValue('double');
  await page.getByLabel('Name of column page').fill('page_path');
  await next(page);
  await expect(select(page, 'Time column')).toHaveValue('ts');
  await expect(select(page, 'Form')).toHaveValue('Unix seconds');
  await expect(page.getByText('All 25 sample rows have a valid time.')).toBeVisible();
  await next(page);

  await select(page, 'Database').click();
  await page.getByRole('option', { name: 'e2e_web' }).click();
  await createTarget(page, null, 'clicks');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('25 rows read: 25 to import, 0 rejected')).toBeVisible();
  await uploadAndCommit(page, 25);

  const table = await showTable(page, 'e2e_web', 'clicks');
  expect(table.count).toBe(25);
  expect(JSON.parse(table.schema)).toEqual([
    ['page_path', 'string'],
    ['ms', 'double'],
  ]);
});

test('a ready-made msgpack.gz part is uploaded as it is; the server refuses its record without a time', async ({
  page,
}) => {
  await createDatabase(page, 'e2e_parts', 'stock');
  await page.goto('/data/import?database=e2e_parts&table=stock');
  await dropFiles(page, 'wizard-drop-area', [msgpackPart(40, { withoutTime: 1 })]);
  await expect(select(page, 'File type of ready.msgpack.gz')).toHaveValue('msgpack.gz part');
  await next(page);
  // Parts carry their own columns and time: straight to the target, chosen in the address.
  await expect(select(page, 'Database')).toHaveValue('e2e_parts');
  await expect(select(page, 'Table')).toHaveValue('stock');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('40 rows read: 40 to import, 0 rejected')).toBeVisible();
  await uploadAndCommit(page, 40, 1);
  const table = await showTable(page, 'e2e_parts', 'stock');
  expect(table.count).toBe(39);
  expect(JSON.parse(table.schema)).toEqual([
    ['sku', 'string'],
    ['qty', 'long'],
  ]);
});

test('cancelling an upload half-way deletes the session', async ({ page }) => {
  await createDatabase(page, 'e2e_cancel', 'events');
  const before = await bulkImportSessions(page);
  await page.goto('/data/import?database=e2e_cancel&table=events');
  await dropFiles(page, 'wizard-drop-area', [csvWithOneBadRow(60)]);
  await next(page);
  await next(page);
  await next(page);
  // Small parts, so there are several to upload.
  await page.getByLabel('Rows per part').fill('10');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('60 rows read: 59 to import, 1 rejected')).toBeVisible();

  // Hold the third part on the wire, so the cancel comes while parts are still on their way.
  let held = (_: unknown) => {};
  const thirdSent = new Promise((resolve) => {
    held = resolve;
  });
  await page.route('**/v3/bulk_import/upload_part/*/part-00003', async (route) => {
    held(route);
    // Never answered: the cancel aborts this request.
  });
  await page.getByRole('button', { name: 'Upload 59 rows' }).click();
  await thirdSent;
  await expect(
    page.getByRole('table', { name: 'Parts' }).getByRole('row', { name: /part-00001 .* uploaded/ }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByText('Upload cancelled')).toBeVisible();
  await expect(page.getByText('The bulk import session was deleted; nothing was imported.')).toBeVisible();
  expect(await bulkImportSessions(page)).toEqual(before);
  expect((await showTable(page, 'e2e_cancel', 'events')).count).toBe(0);
});

test('a failing part is retried by itself with backoff, then shown with the reason for a retry by hand', async ({
  page,
}) => {
  await createDatabase(page, 'e2e_retry', 'events');
  await page.goto('/data/import?database=e2e_retry&table=events');
  await dropFiles(page, 'wizard-drop-area', [csvWithOneBadRow(30)]);
  await next(page);
  await next(page);
  await next(page);
  await page.getByLabel('Rows per part').fill('10');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await expect(page.getByText('30 rows read: 29 to import, 1 rejected')).toBeVisible();

  // The second part is refused, as a server under maintenance would, until the test lets it through.
  let refusals = 0;
  let open = false;
  await page.route('**/v3/bulk_import/upload_part/*/part-00002', async (route) => {
    if (open) return route.continue();
    refusals += 1;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        error: 'Service Unavailable',
        message: 'The server is restarting; try again.',
        text: 'The server is restarting; try again.',
        severity: 'error',
        status_code: 503,
      }),
    });
  });
  await page.getByRole('button', { name: 'Upload 29 rows' }).click();
  const parts = page.getByRole('table', { name: 'Parts' });
  // Tried three times in all (two automatic retries, after 1 s and 3 s), then left to the user.
  await expect(parts.getByRole('row', { name: /part-00002 .* retrying \(attempt 3 of 3\)/ })).toBeVisible();
  await expect(parts.getByRole('row', { name: /part-00002 .* failed/ })).toBeVisible({ timeout: 10_000 });
  expect(refusals).toBe(3);
  await expect(page.getByText('The server is restarting; try again.')).toBeVisible();
  await expect(parts.getByRole('row', { name: /part-00003 .* uploaded/ })).toBeVisible();
  open = true;
  await page.getByRole('button', { name: 'Retry part-00002' }).click();
  await expect(page.getByLabel('Valid records')).toHaveText('29');
  await page.getByRole('button', { name: 'Commit 29 records' }).click();
  await expect(page.getByText('Import complete')).toBeVisible();
  expect((await showTable(page, 'e2e_retry', 'events')).count).toBe(29);
});

/** Into an existing table that has `user` (string) and `amount` (string), with parts of 10 rows. */
async function importIntoExisting(page: Page, database: string) {
  await createDatabase(page, database, 'orders');
  const res = await page.request.post(`/v3/table/append-schema/${database}/orders`, {
    headers: { 'x-svc-console': '1' },
    data: {
      schema: [
        ['user', 'string'],
        ['amount', 'string'],
      ],
    },
  });
  expect(res.status()).toBe(200);
  await page.goto(`/data/import?database=${database}&table=orders`);
  await dropFiles(page, 'wizard-drop-area', [csvWithOneBadRow(60)]);
  await next(page);
  await next(page);
  await next(page);
  // The target step matches the columns to the table's.
  const matching = page.getByRole('table', { name: 'Columns in the target table' });
  await expect(matching.getByRole('row', { name: /user\s+string\s+string\s+matches/ })).toBeVisible();
  await expect(matching.getByRole('row', { name: /country/ })).toContainText('will add column country (string)');
  await expect(matching.getByRole('row', { name: /amount/ })).toContainText('type conflict');
  await expect(page.getByRole('alert').filter({ hasText: '1 column has another type in orders' })).toBeVisible();
  await page.getByLabel('Rows per part').fill('10');
  await page.getByRole('button', { name: 'Check and encode' }).click();
  await page.getByRole('button', { name: 'Upload 59 rows' }).click();
}

test('the perform shows parts checked, rows and time; Discard deletes the session and adds no column', async ({
  page,
}) => {
  const before = await bulkImportSessions(page);
  await importIntoExisting(page, 'e2e_discard');
  await expect(page.getByLabel('Valid records')).toHaveText('59');
  await expect(page.getByRole('progressbar', { name: 'Perform progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByLabel('Perform parts')).toHaveText('6 of 6 parts checked');
  await expect(page.getByLabel('Perform rows')).toHaveText('59 rows');
  await expect(page.getByLabel('Perform elapsed')).toHaveText(/^\d+(\.\d)? s$/);

  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('Import discarded')).toBeVisible();
  expect(await bulkImportSessions(page)).toEqual(before);
  const table = await showTable(page, 'e2e_discard', 'orders');
  expect(table.count).toBe(0);
  // Columns are added only at the commit: the table is as it was.
  expect(JSON.parse(table.schema)).toEqual([
    ['user', 'string'],
    ['amount', 'string'],
  ]);
});

test('leaving the wizard after the upload, before the commit, deletes the session', async ({ page }) => {
  const before = await bulkImportSessions(page);
  await importIntoExisting(page, 'e2e_leave');
  await expect(page.getByRole('button', { name: 'Commit 59 records' })).toBeVisible();
  expect((await bulkImportSessions(page)).length).toBe(before.length + 1);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Databases' }).click();
  await expect(page).toHaveURL(/\/data\/databases$/);
  await expect.poll(() => bulkImportSessions(page)).toEqual(before);
  expect(JSON.parse((await showTable(page, 'e2e_leave', 'orders')).schema)).toHaveLength(2);
});
