import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/** Invitations and password reset links through the console (decision 0044); this server sends no e-mail. */

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
const WINDOW = { width: 1440, height: 900 };
// Each test signs in three people (scrypt each) and opens three browsers: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

const usersPage = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
};

/** Invites an address from the Users page and returns the link the dialog shows to copy. */
async function invite(page: Page, email: string, administrator = false, screenshot?: string): Promise<string> {
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite user' });
  await dialog.getByLabel('E-mail', { exact: true }).fill('not an address');
  await dialog.getByRole('button', { name: 'Create invitation' }).click();
  await expect(dialog.getByText('Enter a valid e-mail address.')).toBeVisible();
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  if (administrator) await dialog.getByLabel('Administrator').check();
  await dialog.getByRole('button', { name: 'Create invitation' }).click();
  const created = page.getByRole('dialog', { name: 'Invitation created' });
  await expect(created.getByText('Send this link yourself')).toBeVisible();
  const link = await created.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/join#[A-Za-z0-9_-]{43}$/);
  if (screenshot) await page.screenshot({ path: resolve(SCREENSHOTS, screenshot) });
  await created.getByRole('button', { name: 'Done' }).click();
  return link;
}

/** The ids of serious or critical WCAG A/AA problems axe-core finds on the page (none expected). */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

/** A browser without a session, as the invitee's. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: WINDOW });
  contexts.push(context);
  return context.newPage();
}

test('an administrator invites a person, who joins once with their own name and password', async ({
  page,
  browser,
}) => {
  const email = `ada-${Date.now()}@e2e.test`;
  await page.setViewportSize(WINDOW);
  await signIn(page);
  await usersPage(page);
  const link = await invite(page, email, true, 'invitation-link.png');
  const row = page.getByRole('region', { name: 'Invitations' }).getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Administrator');
  await expect(row).toContainText('Pending');
  await page.screenshot({ path: resolve(SCREENSHOTS, 'invitations-list.png') });
  expect(await accessibilityProblems(page)).toEqual([]);

  const invitee = await freshPage(browser);
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: /^Join / })).toBeVisible();
  await expect(invitee.getByText(`You were invited as ${email}.`)).toBeVisible();
  await invitee.screenshot({ path: resolve(SCREENSHOTS, 'invitation-join.png') });
  expect(await accessibilityProblems(invitee)).toEqual([]);
  await invitee.getByLabel('Your name').fill('Ada Lovelace');
  await invitee.getByLabel('Password', { exact: true }).fill('short');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee.getByText('Use at least 8 characters for the password.')).toBeVisible();
  await invitee.getByLabel('Password', { exact: true }).fill('ada joins the team');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee).toHaveURL(/\/overview$/);
  await expect(invitee.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // An administrator, as invited: the Users page is theirs too.
  await expect(
    invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users', exact: true }),
  ).toBeVisible();

  // The link worked once.
  const again = await freshPage(browser);
  await again.goto(link);
  await expect(again.getByText('The link does not work')).toBeVisible();
  await expect(again.getByText(/no longer works/)).toBeVisible();

  // The administrator's list no longer shows it; the user is in the table.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Ada Lovelace');
  await expect(page.getByRole('region', { name: 'Invitations' }).getByText(email)).toHaveCount(0);
});

test('a revoked invitation’s link no longer works', async ({ page, browser }) => {
  const email = `revoked-${Date.now()}@e2e.test`;
  await signIn(page);
  await usersPage(page);
  const link = await invite(page, email);
  await page.getByRole('button', { name: `Revoke the invitation of ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke invitation' });
  await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByText(`The invitation of ${email} was revoked.`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Revoke the invitation of ${email}` })).toHaveCount(0);

  const invitee = await freshPage(browser);
  await invitee.goto(link);
  await expect(invitee.getByText('The link does not work')).toBeVisible();
});

test('a forgotten password: the sign-in page says whom to ask, and an administrator’s reset link sets a new one', async ({
  page,
  browser,
}) => {
  const email = `reset-${Date.now()}@e2e.test`;
  await signIn(page);
  await usersPage(page);
  const link = await invite(page, email);
  const invitee = await freshPage(browser);
  await invitee.goto(link);
  await invitee.getByLabel('Your name').fill('Forgetful Fred');
  await invitee.getByLabel('Password', { exact: true }).fill('fred first password');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee).toHaveURL(/\/overview$/);

  // This server sends no e-mail: "Forgot your password?" says to ask an administrator.
  const forgot = await freshPage(browser);
  await forgot.goto('/login');
  await forgot.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(forgot.getByText('Ask an administrator')).toBeVisible();
  expect(await accessibilityProblems(forgot)).toEqual([]);

  await page.reload();
  await page.getByRole('button', { name: 'Password reset link for Forgetful Fred' }).click();
  const dialog = page.getByRole('dialog', { name: 'Password reset link' });
  await dialog.getByRole('button', { name: 'Make reset link' }).click();
  const resetLink = await dialog.getByLabel('Reset link').inputValue();
  expect(resetLink).toMatch(/\/reset-password#[A-Za-z0-9_-]{43}$/);

  await forgot.goto(resetLink);
  await expect(forgot.getByText(`Choose a new password for ${email}`)).toBeVisible();
  expect(await accessibilityProblems(forgot)).toEqual([]);
  await forgot.getByLabel('New password').fill('fred second password');
  await forgot.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(forgot).toHaveURL(/\/overview$/);
  // The session that knew the old password is over.
  await invitee.reload();
  await expect(invitee.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signIn(invitee, email, 'fred second password');
});
