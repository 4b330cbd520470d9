import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, launchableJourney, patchJourneyByApi } from './journey-setup';

const CONSOLE = { 'x-svc-console': '1' };

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test("the journey list names a member as owner and reads a launched journey's state in full; its palette does not offer the launch again", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'owners');
  await createJourneyByApi(page, world, {
    ...launchableJourney(world, 'Made by the administrator', 'ownr'),
    goal: null,
  });

  // A member with Full Control on the segment's folders makes a journey and launches it.
  const email = 'owner.member@e2e.test';
  const password = 'owner member password 1';
  const user = await page.request.post('/console-api/users', {
    headers: CONSOLE,
    data: { name: 'Owen Owner', email, password, administrator: false },
  });
  expect(user.status(), await user.text()).toBe(200);
  const userId = ((await user.json()) as { user: { id: number } }).user.id;
  const grant = await page.request.put(`/entities/folders/${world.rootFolderId}/permissions`, {
    headers: CONSOLE,
    data: { permissions: [{ userId, permission: 'full_control' }] },
  });
  expect(grant.status(), await grant.text()).toBe(200);
  const member = await browser.newPage();
  await signIn(member, email, password);
  const name = 'A spring welcome for every new customer of the shop, with a long name';
  const journeyId = await createJourneyByApi(member, world, launchableJourney(world, name, 'mmbr'));
  await patchJourneyByApi(member, journeyId, { state: 'launched' });
  await member.close();

  await page.goto('/journeys');
  const table = page.getByRole('table', { name: 'Journeys' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row.getByRole('cell', { name: 'Owen Owner', exact: true })).toBeVisible();
  const me = (await (await page.request.get('/console-api/me')).json()) as { user: { name: string } };
  const admin = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'Made by the administrator' }) });
  await expect(admin.getByRole('cell', { name: me.user.name, exact: true })).toBeVisible();
  const badge = row.getByText('Launched', { exact: true });
  await expect(badge).toBeVisible();
  expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.screenshot({ path: '../docs/screenshots/journeys-list-owner.png' });

  await row.getByRole('link', { name, exact: true }).click();
  await expect(page.getByLabel('State: Launched')).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /^No problems/ });
  await expect(status).toHaveText('No problems: the journey runs as designed.');

  // Its statistics window takes dates as ISO text, whatever the browser's locale, and says how to write them.
  await page.getByRole('tab', { name: 'Statistics' }).click();
  const from = page.getByRole('textbox', { name: 'From (UTC)' });
  const to = page.getByRole('textbox', { name: 'To (UTC)' });
  await expect(to).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  await expect(from).not.toHaveAttribute('type', 'date');
  const end = await to.inputValue();
  await from.fill('02/01/2026');
  await from.press('Enter');
  await expect(page.getByText('Write the date as YYYY-MM-DD, e.g. 2026-03-31.')).toBeVisible();
  await from.fill('2026-02-30');
  await from.press('Enter');
  await expect(page.getByText('There is no 2026-02-30.', { exact: false })).toBeVisible();
  await from.fill('2999-01-01');
  await from.press('Enter');
  await expect(page.getByText(`From is after To (${end}).`)).toBeVisible();
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 7 * 86_400_000).toISOString().slice(0, 10);
  await from.fill(start);
  await from.press('Enter');
  await expect(page).toHaveURL(new RegExp(`from=${start}`));
  await expect(page.getByText('Write the date as', { exact: false })).toHaveCount(0);
});
