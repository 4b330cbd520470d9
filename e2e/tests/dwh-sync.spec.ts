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
  await choose(page, 'SSL mode', 'disable');
  await form.getByRole('button', { name: 'Save authentication' }).click();
  await expect(page.getByRole('combobox', { name: 'Authentication', exact: true })).toHaveValue(/^e2e warehouse/);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Connection works')).toBeVisible();
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
