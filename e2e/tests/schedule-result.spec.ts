import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createResultConnection, insertRows } from './data-seed';
import { openScheduleDialog, signIn } from './helpers';

/**
 * The schedule form's result output: a table chosen from the account's databases, a saved result connection
 * or a webhook; a target that cannot be written is refused at the field and nothing is made. A time zone
 * that is not in the list says so.
 */

const DB = 'e2e_sched_out';
const NAME = 'e2e_visits_out';

test('the schedule form writes the result to a webhook, a table or a connection, refusing what it cannot write', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // The webhook: a listener on this machine's loopback (the test server allows private addresses).
  const received: { url: string; rows: unknown[] }[] = [];
  const hook = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', rows: (JSON.parse(raw) as { rows: unknown[] }).rows });
      res.end('ok');
    });
  });
  await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/in`;
  try {
    await signIn(page).catch(() =>
      expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 60_000 }),
    );
    await insertRows(page, DB, 'visits', [
      { time: 1_700_000_000, path: '/home' },
      { time: 1_700_000_060, path: '/cart' },
      { time: 1_700_000_120, path: '/home' },
    ]);
    await createResultConnection(page, 'e2e_counts_out', `td://@/${DB}/by_connection`);
    const dialog = await openScheduleDialog(page, DB, 'SELECT path, count(*) AS n FROM visits GROUP BY path', NAME);

    // A time zone not in the list is named as such.
    await dialog.getByRole('combobox', { name: 'Time zone' }).fill('Mars/Olympus');
    await expect(page.getByText('No such time zone: pick one from the list')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Time zone' }).fill('Europe/Ber');
    await page.getByRole('option', { name: 'Europe/Berlin' }).click();

    // A table name that cannot be made: refused at the table field, and no schedule is made.
    await dialog.getByRole('combobox', { name: 'Write the result' }).click();
    await page.getByRole('option', { name: 'To a table' }).click();
    await expect(dialog.getByRole('combobox', { name: 'Result database' })).toHaveValue(DB);
    const table = dialog.getByLabel('Result table');
    await table.fill('Bad-Name!');
    await dialog.getByRole('button', { name: 'Create schedule' }).click();
    await expect(dialog.getByText(/"result": .*cannot be created/)).toBeVisible();
    // A webhook on a reserved address: refused at the URL field.
    await dialog.getByRole('combobox', { name: 'Write the result' }).click();
    await page.getByRole('option', { name: 'To a webhook URL' }).click();
    const url = dialog.getByRole('textbox', { name: 'Webhook URL' });
    await url.fill('https://169.254.169.254/latest');
    await dialog.getByRole('button', { name: 'Create schedule' }).click();
    await expect(dialog.getByText(/link-local or reserved address/)).toBeVisible();
    const listed = await page.request.get('/v3/schedule/list', { headers: { 'x-svc-console': '1' } });
    expect(JSON.stringify(await listed.json())).not.toContain(NAME);

    // The webhook: made, run now, the rows arrive, and the job shows where they went, its secret masked.
    await url.fill(`${hookUrl}?token=s3cret`);
    await dialog.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page).toHaveURL(new RegExp(`/data/schedules/${NAME}$`));
    await page.getByRole('link', { name: 'All scheduled queries' }).click();
    const row = page.getByRole('table', { name: 'Scheduled queries' }).getByRole('row').filter({ hasText: NAME });
    await expect(row).toContainText(`→ ${hookUrl}?token=***`);
    await row.getByRole('button', { name: `Run ${NAME} now` }).click();
    const firstJob = (await row.getByRole('link', { name: /^Job \d+$/ }).textContent()) ?? '';
    await row.getByRole('link', { name: /^Job \d+$/ }).click();
    await expect(page.getByTestId('result-output')).toHaveText(`Rows sent to ${hookUrl}?token=***.`, {
      timeout: 30_000,
    });
    expect(received.map((r) => r.url)).toEqual(['/in?token=s3cret']);
    expect(received[0]?.rows).toEqual(
      expect.arrayContaining([
        { path: '/home', n: 2 },
        { path: '/cart', n: 1 },
      ]),
    );

    // Edited to a table, replaced at each run; then to a saved connection.
    await page.goto('/data/schedules');
    await row.getByRole('button', { name: `Edit ${NAME}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit schedule ${NAME}` });
    await expect(edit.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(`${hookUrl}?token=***`);
    await edit.getByRole('combobox', { name: 'Write the result' }).click();
    await page.getByRole('option', { name: 'To a table' }).click();
    await edit.getByLabel('Result table').fill('visit_counts');
    await edit.getByRole('checkbox', { name: /Replace the table's rows/ }).check();
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText(`→ td://@/${DB}/visit_counts?mode=replace`);

    await row.getByRole('button', { name: `Edit ${NAME}` }).click();
    await expect(edit.getByLabel('Result table')).toHaveValue('visit_counts');
    await edit.getByRole('combobox', { name: 'Write the result' }).click();
    await page.getByRole('option', { name: 'To a result connection' }).click();
    await edit.getByRole('combobox', { name: 'Result connection' }).click();
    await page.getByRole('option', { name: /^e2e_counts_out/ }).click();
    await edit.getByRole('button', { name: 'Save schedule' }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText('→ e2e_counts_out');
    await row.getByRole('button', { name: `Run ${NAME} now` }).click();
    await expect(row.getByRole('link', { name: /^Job \d+$/ })).not.toHaveText(firstJob);
    await row.getByRole('link', { name: /^Job \d+$/ }).click();
    await expect(page.getByTestId('result-output')).toHaveText('Rows written to e2e_counts_out.', {
      timeout: 30_000,
    });
    await page.goto(`/data/databases/${DB}`);
    await expect(page.getByRole('link', { name: 'by_connection' })).toBeVisible();
    expect(received).toHaveLength(1);
  } finally {
    await new Promise((done) => hook.close(done));
  }
});
