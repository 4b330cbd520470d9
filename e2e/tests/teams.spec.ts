import { type Browser, expect, type Page, type TestInfo, test } from '@playwright/test';
import { signIn } from './helpers';

const CONSOLE = { 'x-svc-console': '1' };
const PASSWORD = 'member password 123';

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, animations: 'disabled', fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** A parent segment over a small customers table, made through the API by the signed-in administrator. */
async function parentSegment(page: Page, name: string): Promise<{ id: string; rootFolderId: string }> {
  const database = `team_${Date.now().toString(36)}`;
  const key = await page.request.post('/console-api/api-keys', {
    headers: CONSOLE,
    data: { type: 'master', name: 'Teams spec seeding' },
  });
  const auth = { authorization: `SVC1 ${((await key.json()) as { key: string }).key}` };
  expect((await page.request.post(`/v3/database/create/${database}`, { headers: auth })).ok()).toBe(true);
  const events = ['c1', 'c2', 'c3'].map((id, i) => ({ customer_id: id, plan: i ? 'basic' : 'gold', time: 1 }));
  expect((await page.request.post(`/${database}/customers`, { headers: auth, data: { events } })).ok()).toBe(true);
  const created = await page.request.post('/audiences', {
    headers: auth,
    data: {
      name,
      master: { parentDatabaseName: database, parentTableName: 'customers', parentKey: 'customer_id' },
      attributes: [{ name: 'plan', parentColumn: 'plan', type: 'string' }],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return (await created.json()) as { id: string; rootFolderId: string };
}

async function addMember(page: Page, name: string, email: string): Promise<number> {
  const res = await page.request.post('/console-api/users', {
    headers: CONSOLE,
    data: { name, email, password: PASSWORD, administrator: false },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { user: { id: number } }).user.id;
}

async function memberPage(browser: Browser, email: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, email, PASSWORD);
  return page;
}

test('a member with View sees why Save is disabled before trying; granted Full Control in the console, they save', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const parentName = `Loyal customers ${Date.now().toString(36)}`;
  const parent = await parentSegment(page, parentName);
  const email = `mia-${Date.now()}@e2e.test`;
  await addMember(page, 'Mia Member', email);

  // The member lands on the overview: her role, and View on the parent segment, before she starts.
  const mia = await memberPage(browser, email);
  await expect(mia).toHaveURL(/\/overview$/);
  await expect(mia.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const access = mia.getByRole('table', { name: 'Your access to parent segments' });
  await expect(access.getByRole('row').filter({ hasText: parentName })).toContainText('View');
  await shot(mia, testInfo, 'overview-member');

  // The parent segment's page says so too: creating segments and folders is disabled, with the reason.
  await access.getByRole('link', { name: parentName }).click();
  await expect(mia.getByRole('heading', { name: parentName })).toBeVisible();
  const create = mia.getByRole('link', { name: 'Create segment' });
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await expect(create).toHaveAccessibleDescription(/so you cannot create segments here/);
  await expect(mia.getByRole('button', { name: `New folder in ${parentName}` })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  // Delete and Rebuild are disabled too, each saying why (the server refuses them to View with 403).
  for (const [name, action] of [
    ['Delete', 'delete this parent segment'],
    ['Rebuild', 'rebuild this parent segment'],
  ]) {
    const button = mia.getByRole('button', { name, exact: true });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button).toHaveAccessibleDescription(new RegExp(`so you cannot ${action}`));
  }
  await shot(mia, testInfo, 'parent-segment-view-permission');

  // The builder says why she cannot save as soon as it opens; Save is disabled with the reason.
  await mia.goto(`/parent-segments/${parent.id}/segments/new`);
  await expect(mia.getByRole('heading', { name: 'New segment' })).toBeVisible();
  await expect(mia.getByRole('alert').filter({ hasText: `You have View permission on “${parentName}”` })).toBeVisible();
  const save = mia.getByRole('button', { name: 'Save segment' });
  await expect(save).toHaveAttribute('aria-disabled', 'true');
  await expect(save).toHaveAccessibleDescription(/You have View permission on .*so you cannot save segments in it/);
  await save.hover();
  await expect(mia.getByRole('tooltip')).toContainText('Ask an administrator for Full Control.');
  await mia.getByLabel('Segment name').fill('Gold members');
  let posted = false;
  mia.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/segments')) posted = true;
  });
  await save.click({ force: true });
  await expect(mia.getByText('The segment was not saved')).toHaveCount(0);
  expect(posted).toBe(false);
  await shot(mia, testInfo, 'segment-editor-view-permission');

  // The administrator opens the parent segment's permissions and grants Full Control.
  await page.goto(`/parent-segments/${parent.id}`);
  await page.getByRole('button', { name: `Permissions of ${parentName}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Permissions: ${parentName}` });
  const row = dialog.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('account default');
  await row.getByRole('radiogroup', { name: 'Permission of Mia Member' }).getByText('Full Control').click();
  await expect(row.getByLabel(/Access of Mia Member: Full Control, granted here/)).toBeVisible();
  await shot(page, testInfo, 'folder-permissions-parent-segment');
  await dialog.getByRole('button', { name: 'Save permissions' }).click();
  await expect(page.getByText(`Permissions on “${parentName}” were saved.`)).toBeVisible();

  // The member's builder now lets her save, and the segment is stored.
  await mia.reload();
  await expect(mia.getByLabel('Your access: Full Control')).toBeVisible();
  await mia.getByLabel('Segment name').fill('Gold members');
  await expect(mia.getByRole('button', { name: 'Save segment' })).not.toHaveAttribute('aria-disabled', 'true');
  await mia.getByRole('button', { name: 'Save segment' }).click();
  await expect(mia.getByText('The segment Gold members was saved.')).toBeVisible();
  await expect(mia).toHaveURL(new RegExp(`/parent-segments/${parent.id}/segments/\\d+$`));
  await mia.close();
});

test('a member with Full Control on a sub-folder only is told where she can work, not that she cannot', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const parentName = `Sub-folder grants ${Date.now().toString(36)}`;
  const parent = await parentSegment(page, parentName);
  const folder = await page.request.post('/entities/folders', {
    headers: CONSOLE,
    data: { name: 'Spring campaign', parentFolderId: parent.rootFolderId },
  });
  expect(folder.status(), await folder.text()).toBe(200);
  const folderId = ((await folder.json()) as { data: { id: string } }).data.id;
  const email = `sofia-${Date.now()}@e2e.test`;
  const userId = await addMember(page, 'Sofia Sub', email);
  const grant = await page.request.put(`/entities/folders/${folderId}/permissions`, {
    headers: CONSOLE,
    data: { permissions: [{ userId, permission: 'full_control' }] },
  });
  expect(grant.status(), await grant.text()).toBe(200);

  const sofia = await memberPage(browser, email);
  await sofia.goto(`/parent-segments/${parent.id}`);
  await expect(sofia.getByRole('heading', { name: parentName })).toBeVisible();
  const note = sofia.getByRole('alert').filter({ hasText: `You have View permission on “${parentName}”` });
  await expect(note).toContainText(
    'You have Full Control in “Spring campaign”, so you can create, change or delete segments and folders there.',
  );
  await expect(note).not.toContainText('you cannot');
  await sofia.screenshot({ path: '../docs/screenshots/parent-segment-sub-folder-full-control.png' });
  await sofia.close();
});

test('members see only what they can use; an administrator changes a role and finds it in the audit log', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const email = `noah-${Date.now()}@e2e.test`;
  await addMember(page, 'Noah', email);

  // A member: no administration in the navigation; its addresses still explain themselves.
  const noah = await memberPage(browser, email);
  const nav = noah.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'API keys' })).toBeVisible();
  for (const hidden of ['Users', 'Single sign-on', 'Audit log']) {
    await expect(nav.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  }
  await noah.goto('/settings/audit-log');
  await expect(noah.getByText('Only administrators can read the audit log')).toBeVisible();

  // The administrator makes Noah an administrator from the users page.
  await page.goto('/settings/users');
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Member');
  await row.getByRole('button', { name: 'Edit Noah' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Noah' });
  await edit.getByLabel('Name').fill('Noah Admin');
  await edit.getByRole('radio', { name: /^Administrator/ }).check();
  await expect(edit).toContainText('A new role ends Noah’s sessions');
  await shot(page, testInfo, 'users-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Administrator');
  await expect(row).toContainText('Noah Admin');

  // His session ended with the old role: he signs in again and sees administration.
  await noah.reload();
  await expect(noah.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signIn(noah, email, PASSWORD);
  await expect(noah.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toBeVisible();
  await noah.close();

  // The audit log, filtered to role changes, shows who did it; the export holds the same entries.
  await page.getByRole('link', { name: 'Audit log', exact: true }).click();
  await page.getByRole('combobox', { name: 'Actions' }).click();
  await page.getByRole('option', { name: /Role changed/ }).click();
  await page.keyboard.press('Escape');
  const events = page.getByRole('table', { name: 'Audit events' });
  const entry = events.getByRole('row').filter({ hasText: email });
  await expect(entry.first()).toContainText('Role changed');
  await expect(events.getByRole('row').filter({ hasText: 'User added' })).toHaveCount(0);
  await shot(page, testInfo, 'audit-log-filtered');
  const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(href).toBe('/v3/account/audit_log.csv?action=user.role_change');
  const csv = await (await page.request.get(href ?? '')).text();
  expect(csv.split('\r\n')[0]).toBe('id,time,actor,action,target,outcome,reason,details');
  expect(csv).toContain(`,user.role_change,${email},success,`);
  expect(csv).not.toContain(',user.create,');
});
