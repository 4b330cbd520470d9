import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * The warehouse sync wizard against a real PostgreSQL: `SVC_TEST_PG_URL` from `npm test`, or a private server
 * started here with scripts/postgres.mjs (and stopped after). The server under test allows loopback
 * warehouses because playwright.config.ts starts it with `SVC_DWH_ALLOW_LOOPBACK=1`.
 */
const script = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/postgres.mjs');
let url = process.env.SVC_TEST_PG_URL ?? '';
let dir: string | null = null;

const psql = (database: string, sql: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  execFileSync('psql', [u.toString(), '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: 'pipe' });
};

test.beforeAll(() => {
  if (!url) {
    const started = JSON.parse(execFileSync(process.execPath, [script, 'start'], { encoding: 'utf8' }).trim()) as {
      url: string;
      dir: string;
    };
    url = started.url;
    dir = started.dir;
  }
  psql('postgres', 'DROP DATABASE IF EXISTS e2e_shop');
  psql('postgres', 'CREATE DATABASE e2e_shop');
  psql(
    'e2e_shop',
    `CREATE TABLE public.customers (id integer PRIMARY KEY, name text NOT NULL, amount numeric(8,2),
       signed_up timestamptz NOT NULL, profile jsonb);
     INSERT INTO public.customers VALUES
       (1, 'alice', 10.50, '2026-01-01 10:00:00+00', '{"tier": "gold"}'),
       (2, 'bob', NULL, '2026-01-02 10:00:00+00', NULL),
       (3, 'carol', 7.25, '2026-01-03 10:00:00+00', '{"tier": "silver"}');`,
  );
});

test.afterAll(() => {
  if (dir) execFileSync(process.execPath, [script, 'stop', dir]);
});

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the sync wizard goes from a new authentication to a finished run and the loaded table', async ({ page }) => {
  const pg = new URL(url);
  await signIn(page);
  await page.getByRole('link', { name: 'Warehouse sync' }).click();
  await expect(page.getByRole('heading', { name: 'Warehouse sync' })).toBeVisible();
  const enable = page.getByRole('button', { name: 'Enable warehouse sync' });
  const newSync = page.getByRole('link', { name: 'New sync' });
  // Whether the switch is on is known once the gate's check has ended: wait for it before choosing.
  await expect(page.getByRole('status', { name: 'Checking the warehouse sync feature' })).toHaveCount(0);
  if (await enable.isVisible()) {
    await enable.click();
    await expect(enable).toBeHidden();
  }
  await newSync.click();
  await expect(page.getByRole('heading', { name: 'New warehouse sync' })).toBeVisible();

  const form = page.locator('form[aria-label="New authentication"]');
  await form.getByLabel('Name', { exact: true }).fill('e2e warehouse');
  await form.getByLabel('Host', { exact: true }).fill(pg.hostname);
  await form.getByLabel('Port', { exact: true }).fill(pg.port);
  await form.getByLabel('Database', { exact: true }).fill('e2e_shop');
  await form.getByLabel('User', { exact: true }).fill(decodeURIComponent(pg.username));
  await form.getByLabel('Password', { exact: true }).fill(decodeURIComponent(pg.password));
  // The default SSL mode is prefer, explained on the form; the test server offers no TLS, so it connects without.
  await expect(form.getByRole('combobox', { name: 'SSL mode' })).toHaveValue(/^prefer \(default\)/);
  await expect(form.getByText("prefer is PostgreSQL's own default")).toBeVisible();
  // Tested before anything is saved.
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByText('Connection works')).toBeVisible();
  await expect(form.getByText(/without TLS \(the server offers none/)).toBeVisible();
  await form.getByRole('button', { name: 'Save authentication' }).click();
  await expect(page.getByRole('combobox', { name: 'Authentication', exact: true })).toHaveValue(/^e2e warehouse/);
  await page.getByRole('button', { name: 'Next: choose tables' }).click();

  await page.getByRole('checkbox', { name: 'customers' }).check();
  await page.getByRole('button', { name: 'Next: review configuration' }).click();

  await expect(page.getByRole('table', { name: 'Columns of public.customers' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Type of amount' })).toHaveValue('double');
  await choose(page, 'Type of amount', 'string');
  await choose(page, 'Time column for public.customers', 'signed_up');
  await page.getByRole('textbox', { name: 'Integration name', exact: true }).fill('Customers from the shop');
  await page.getByRole('combobox', { name: 'Target database', exact: true }).fill('e2e_sync');
  await page.getByRole('button', { name: 'Create and run' }).click();

  await expect(page.getByRole('heading', { name: 'Customers from the shop' })).toBeVisible();
  const run = page.getByRole('table', { name: 'Tables of run 1' });
  await expect(run.getByRole('row', { name: /e2e_sync\.customers/ })).toContainText('success', { timeout: 20_000 });
  await expect(run.getByRole('row', { name: /e2e_sync\.customers/ })).toContainText('3');

  await run.getByRole('link', { name: 'e2e_sync.customers' }).click();
  await expect(page).toHaveURL(/\/data\/databases\/e2e_sync\/tables\/customers$/);
  await expect(page.getByText('alice').first()).toBeVisible();
  await expect(page.getByText('carol').first()).toBeVisible();
});

/** A call with the page's console session (the CSRF header on every method, as the console sends it). */
async function call(page: Page, method: string, path: string, data?: unknown): Promise<Record<string, unknown>> {
  const res = await page.request.fetch(path, { method, headers: { 'x-svc-console': '1' }, data });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

test('a sync is edited, paused, resumed and deleted with its tables; its authentication edited and deleted', async ({
  page,
}) => {
  const pg = new URL(url);
  await signIn(page);
  await call(page, 'PUT', '/v1/dwh/feature', { enabled: true });
  await call(page, 'POST', '/v3/database/create/e2e_day2');
  const auth = await call(page, 'POST', '/v1/authentications', {
    name: 'day two warehouse',
    host: pg.hostname,
    port: Number(pg.port),
    database: 'e2e_shop',
    user: decodeURIComponent(pg.username),
    password: decodeURIComponent(pg.password),
  });
  const guessed = await call(page, 'POST', '/v1/guess', {
    svc_authentication_id: auth.id,
    schema: 'public',
    tables: ['customers'],
  });
  const { dwh_id: id } = await call(page, 'POST', '/v1/dwh/', {
    name: 'Day two customers',
    basic_configs: guessed.basic_configs,
    advanced_configs: guessed.advanced_configs,
    output_config: { database: 'e2e_day2' },
  });

  // The authentication is listed; deleting it is refused while the sync uses it, naming the sync.
  await page.goto('/data/sync');
  await page.getByRole('link', { name: 'Authentications' }).click();
  const auths = page.getByRole('table', { name: 'Warehouse authentications' });
  await expect(auths.getByRole('row', { name: /day two warehouse/ })).toContainText('prefer');
  await auths.getByRole('button', { name: 'Delete day two warehouse' }).click();
  await page.getByRole('button', { name: 'Delete authentication' }).click();
  await expect(page.getByRole('dialog')).toContainText('used by the integration "Day two customers"');
  await page.getByRole('button', { name: 'Cancel' }).click();
  // Edited, and tested with the stored password before the change is saved.
  await auths.getByRole('button', { name: 'Edit day two warehouse' }).click();
  const editAuth = page.locator('form[aria-label="Edit authentication day two warehouse"]');
  await editAuth.getByLabel('Name', { exact: true }).fill('shop warehouse');
  await editAuth.getByRole('button', { name: 'Test connection' }).click();
  await expect(editAuth.getByText('Connection works')).toBeVisible();
  await editAuth.getByRole('button', { name: 'Save authentication' }).click();
  await expect(auths.getByRole('row', { name: /shop warehouse/ })).toBeVisible();

  // Edit: the schedule, and the table's mode to append + dedup by key with its incremental column.
  await page.goto(`/data/sync/${id}`);
  await expect(page.getByRole('heading', { name: 'Day two customers' })).toBeVisible();
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Day two customers' })).toBeVisible();
  await choose(page, 'Schedule', 'Daily (HH:MM)');
  await page.getByRole('textbox', { name: 'Schedule option' }).fill('10:00');
  await choose(page, 'Mode for public.customers', 'Incremental append + dedup by key');
  await expect(page.getByText('Deletes are not copied')).toBeVisible();
  await choose(page, 'Incremental column for public.customers', 'signed_up');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Into e2e_day2; daily 10:00 (UTC).')).toBeVisible();
  const configs = await call(page, 'GET', `/v1/dwh/${id}/configs`);
  expect((configs.advanced_configs as { config: Record<string, unknown> }[])[0]?.config).toMatchObject({
    mode: 'merge',
    merge_keys: ['id'],
    incremental_columns: ['signed_up'],
  });
  await page.getByRole('button', { name: 'Run now' }).click();
  const run = page.getByRole('table', { name: /^Tables of run \d+$/ });
  await expect(run.getByRole('row', { name: /e2e_day2\.customers/ })).toContainText('success', { timeout: 20_000 });
  await expect(run.getByRole('row', { name: /e2e_day2\.customers/ })).toContainText('3');

  // Pause: the schedule stops, the list says so; resume brings the next run back.
  const summary = page.getByRole('table', { name: 'Sync status' });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(summary).toContainText('paused');
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await page.getByRole('link', { name: 'Warehouse sync' }).click();
  const row = page.getByRole('table', { name: 'Warehouse syncs' }).getByRole('row', { name: /Day two customers/ });
  await expect(row).toContainText('paused');
  await expect(row).toContainText('success');
  await row.getByRole('link', { name: 'Day two customers' }).click();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(summary).not.toContainText('paused');

  // Delete with its target tables.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('checkbox', { name: /Also delete its target tables .*e2e_day2\.customers/ }).check();
  await page.getByRole('button', { name: 'Delete sync' }).click();
  await expect(page).toHaveURL(/\/data\/sync$/);
  await expect(page.getByRole('link', { name: 'Day two customers' })).toHaveCount(0);
  const gone = await page.request.get('/v3/table/show/e2e_day2/customers');
  expect(gone.status()).toBe(404);

  // Unused now, the authentication can be deleted.
  await page.getByRole('link', { name: 'Authentications' }).click();
  await auths.getByRole('button', { name: 'Delete shop warehouse' }).click();
  await page.getByRole('button', { name: 'Delete authentication' }).click();
  await expect(auths.getByRole('row', { name: /shop warehouse/ })).toHaveCount(0);
});
