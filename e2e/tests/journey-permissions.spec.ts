import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';
import { buildJourneyWorld } from './journey-setup';

const CONSOLE = { 'x-svc-console': '1' };

async function createFolder(page: Page, name: string, parentFolderId: string): Promise<string> {
  const res = await page.request.post('/entities/folders', { headers: CONSOLE, data: { name, parentFolderId } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function createJourneyIn(
  page: Page,
  audienceId: string,
  folderId: string,
  name: string,
  stages: unknown[] = [{ name: 'Stage 1', entryCriteria: null, steps: null, rootStep: null }],
  state: 'draft' | 'launched' = 'draft',
): Promise<string> {
  const res = await page.request.post('/entities/journeys', {
    headers: CONSOLE,
    data: {
      type: 'journey',
      attributes: {
        name,
        audienceId,
        state,
        journeyStages: stages,
      },
      relationships: { parentFolder: { data: { id: folderId, type: 'folder-segment' } } },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('an administrator grants View on a folder in the console tree; the user then sees its journey read-only', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'grants');
  // Other browser tests make parent segments of their own: this one's tree is found by its name.
  const parentName = 'Shop customers grants';
  const campaigns = await createFolder(page, 'Campaigns', world.rootFolderId);
  const spring = await createFolder(page, 'Spring', campaigns);
  await createFolder(page, 'Win-back', world.rootFolderId);
  const journeyId = await createJourneyIn(page, world.audienceId, spring, 'Spring launch');
  await createJourneyIn(page, world.audienceId, world.rootFolderId, 'Root welcome');

  const email = 'grantee@e2e.test';
  const password = 'grantee password 123';
  const user = await page.request.post('/console-api/users', {
    headers: CONSOLE,
    data: { name: 'Gina Grantee', email, password, administrator: false },
  });
  expect(user.status(), await user.text()).toBe(200);
  const userId = ((await user.json()) as { user: { id: number } }).user.id;
  // Full Control first (through the route), so the console's change to View is one that can be seen.
  const before = await page.request.put(`/entities/folders/${campaigns}/permissions`, {
    headers: CONSOLE,
    data: { permissions: [{ userId, permission: 'full_control' }] },
  });
  expect(before.status(), await before.text()).toBe(200);

  // The nested tree: Campaigns opens to show Spring; a folder shows its journeys and its sub-folders'.
  await page.goto('/journeys');
  const folders = page.getByRole('navigation', { name: 'Folders' });
  const table = page.getByRole('table', { name: 'Journeys' });
  await expect(folders.getByRole('button', { name: parentName, exact: true })).toBeVisible();
  await expect(folders.getByRole('button', { name: 'Spring', exact: true })).toHaveCount(0);
  await folders.getByRole('button', { name: 'Expand Campaigns', exact: true }).click();
  await folders.getByRole('button', { name: 'Campaigns', exact: true }).click();
  await expect(table.getByRole('link', { name: 'Spring launch' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Root welcome' })).toHaveCount(0);
  await folders.getByRole('button', { name: 'Win-back', exact: true }).click();
  await expect(page.getByText('No journeys here yet.')).toBeVisible();
  await folders.getByRole('button', { name: parentName, exact: true }).click();
  await expect(table.getByRole('link', { name: 'Root welcome' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Spring launch' })).toBeVisible();
  await folders.getByRole('button', { name: 'Spring', exact: true }).click();
  await expect(table.getByRole('link', { name: 'Root welcome' })).toHaveCount(0);
  const list = testInfo.outputPath('journeys-folder-tree.png');
  await page.screenshot({ path: list, animations: 'disabled' });
  await testInfo.attach('journeys-folder-tree', { path: list, contentType: 'image/png' });

  // The administrator opens the folder's permissions: the grant made through the route shows, and becomes View.
  await folders.getByRole('button', { name: 'Permissions of Campaigns', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Permissions: Campaigns' });
  const gina = dialog.getByRole('radiogroup', { name: 'Permission of Gina Grantee' });
  await expect(gina.getByRole('radio', { name: 'Full Control' })).toBeChecked();
  await gina.getByText('View', { exact: true }).click();
  await expect(gina.getByRole('radio', { name: 'View' })).toBeChecked();
  const modal = testInfo.outputPath('folder-permissions-modal.png');
  await page.screenshot({ path: modal, animations: 'disabled' });
  await testInfo.attach('folder-permissions-modal', { path: modal, contentType: 'image/png' });
  await dialog.getByRole('button', { name: 'Save permissions' }).click();
  await expect(page.getByText('Permissions on “Campaigns” were saved.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const saved = await page.request.get(`/entities/folders/${campaigns}/permissions`);
  expect(((await saved.json()) as { grants: unknown[] }).grants).toEqual([
    expect.objectContaining({ userId: String(userId), permission: 'view', inherited: false }),
  ]);
  await signOut(page);

  // The user: no permissions action, no journey actions, no creating in Spring, and a read-only canvas.
  const viewer = await browser.newPage();
  await viewer.setViewportSize({ width: 1440, height: 900 });
  await signIn(viewer, email, password);
  await viewer.goto('/journeys');
  const theirFolders = viewer.getByRole('navigation', { name: 'Folders' });
  await theirFolders.getByRole('button', { name: 'Expand Campaigns', exact: true }).click();
  await theirFolders.getByRole('button', { name: 'Spring', exact: true }).click();
  await expect(theirFolders.getByRole('button', { name: /^Permissions of / })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Create journey' })).toBeDisabled();
  await expect(viewer.getByText('You have View permission on “Spring”.', { exact: false })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Actions for Spring launch' })).toHaveCount(0);
  await viewer.getByRole('table', { name: 'Journeys' }).getByRole('link', { name: 'Spring launch' }).click();
  await expect(viewer).toHaveURL(new RegExp(`/journeys/${journeyId}$`));
  await expect(viewer.getByRole('heading', { name: 'Spring launch' })).toBeVisible();
  await expect(viewer.getByText('You can view this journey but not change it.')).toBeVisible();
  // Save and Launch are there, disabled, and say why before the user tries.
  const save = viewer.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toHaveAttribute('aria-disabled', 'true');
  await expect(save).toHaveAccessibleDescription(/You have View permission on this journey’s folder/);
  await expect(viewer.getByRole('button', { name: 'Launch', exact: true })).toHaveAttribute('aria-disabled', 'true');
  await viewer.close();
});

test('an administrator creates a journey in the chosen folder; a launched journey offers no Rename', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'place');
  const parentName = 'Shop customers place';
  const promos = await createFolder(page, 'Promotions', world.rootFolderId);
  const everyone = { name: 'Entry', segmentId: world.segments.everyone };
  const launched = [{ name: 'Stage 1', entryCriteria: everyone, steps: { e: { type: 'End' } }, rootStep: 'e' }];
  await createJourneyIn(page, world.audienceId, promos, 'Always on', launched, 'launched');

  await page.goto('/journeys');
  const folders = page.getByRole('navigation', { name: 'Folders' });
  await folders.getByRole('button', { name: `Collapse ${parentName}`, exact: true }).click();
  await expect(folders.getByRole('button', { name: 'Promotions', exact: true })).toHaveCount(0);
  await folders.getByRole('button', { name: `Expand ${parentName}`, exact: true }).click();
  await folders.getByRole('button', { name: 'Promotions', exact: true }).click();
  await page.getByRole('button', { name: 'Actions for Always on' }).click();
  await expect(page.getByRole('menuitem', { name: 'Duplicate' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Create journey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create journey' });
  await expect(dialog.getByLabel('Folder')).toHaveValue(`${parentName} › Promotions`);
  await dialog.getByLabel('Journey name').fill('Summer promo');
  await dialog.getByRole('button', { name: 'Create journey' }).click();
  await expect(page.getByRole('heading', { name: 'Summer promo' })).toBeVisible();
  const id = /\/journeys\/(\d+)$/.exec(page.url())?.[1];
  const stored = await page.request.get(`/entities/journeys/${id}`);
  const body = (await stored.json()) as { data: { relationships: { parentFolder: { data: { id: string } } } } };
  expect(body.data.relationships.parentFolder.data.id).toBe(promos);

  // A draft offers Rename.
  await page.goto('/journeys');
  await page.getByRole('button', { name: 'Actions for Summer promo' }).click();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
});
