import { expect, type Locator, type Page, test } from '@playwright/test';
import { realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn, signOut } from './helpers';
import { buildJourneyWorld, createJourneyByApi, demoRefsOf, edgeTriples } from './journey-setup';

/** Chooses an option of a Mantine select by its label. */
async function choose(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function addOnEdge(page: Page, edge: string, kind: string) {
  await page.getByRole('button', { name: edge, exact: true }).click();
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
}

/** The canvas's nodes as their accessible names, sorted: what "the same graph" means to a person. */
async function nodeNames(page: Page) {
  const names = await page
    .locator('.react-flow__node')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? '').filter(Boolean));
  return names.sort();
}

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('a marketer builds, checks, saves, launches, pauses, resumes and duplicates a two-stage journey', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1680, height: 1000 });
  await signIn(page);
  await buildJourneyWorld(page, 'build');

  await page.getByRole('link', { name: 'Journeys', exact: true }).click();
  await page.getByRole('button', { name: 'Create journey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create journey' });
  await dialog.getByLabel('Journey name').fill('Spring welcome');
  // Other browser tests make parent segments of their own: pick this journey's one by name.
  await choose(page, dialog, 'Parent segment', 'Shop customers build');
  await dialog.getByRole('button', { name: 'Create journey' }).click();
  await expect(page.getByRole('heading', { name: 'Spring welcome' })).toBeVisible();
  await expect(page.getByLabel('State: Draft')).toBeVisible();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });

  // Stage 1: entry criteria and milestone, edited from its card.
  await page.getByRole('group', { name: 'Stage 1: Stage 1' }).click();
  await side.getByLabel('Stage name').fill('Welcome');
  await choose(page, side, 'Entry criteria', 'Everyone');
  await choose(page, side, 'Milestone', 'Made a purchase');

  // A wait at the start of the stage, through "+" on the edge.
  await addOnEdge(page, 'Add a step at the start of stage 1', 'Wait');
  const wait = page.getByRole('group', { name: 'Wait: Wait 1 day' });
  await wait.click();
  // A validation badge appears for a zero-day wait and disappears when fixed.
  await side.getByLabel('Wait length (days)').fill('0');
  // (Its open path is a second, launch-only problem until the path gets an End.)
  const lengthProblem = { name: /whole number of days/ };
  await expect(page.getByRole('group', { name: 'Wait: Wait 0 days' }).getByRole('img', lengthProblem)).toBeVisible();
  await side.getByLabel('Wait length (days)').fill('3');
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toBeVisible();
  await expect(page.getByRole('img', lengthProblem)).toHaveCount(0);

  // A decision point from the palette, after the selected wait; a third path; segments on two of them.
  await page
    .getByRole('navigation', { name: 'Step palette' })
    .getByRole('button', { name: 'Add Decision point' })
    .click();
  await expect(page.getByRole('group', { name: 'Decision point: Decision point' })).toBeVisible();
  await side.getByRole('button', { name: 'Add path' }).click();
  await choose(page, side, 'Path 1 segment', 'Customers in Japan');
  await choose(page, side, 'Path 2 segment', 'Customers in the US');
  await expect(side.getByLabel('Path 3 name')).toHaveValue('Excluded profiles');

  // A merge on the first path; the other two paths lead into it.
  await addOnEdge(page, 'Add a step on path "Path 1" of "Decision point"', 'Merge');
  await page.getByRole('group', { name: 'Decision point: Decision point' }).click();
  await choose(page, side, '"Path 2" leads to', 'Merge');
  await choose(page, side, '"Excluded profiles" leads to', 'Merge');

  // An A/B test after the merge, with a control and one variant, each path ended.
  await addOnEdge(page, 'Add a step after "Merge"', 'A/B test');
  await page.getByRole('group', { name: 'A/B test: A/B test' }).click();
  await choose(page, side, 'Unique ID column', 'customer_id');
  await expect(side.getByLabel('Even split')).toBeChecked();
  await expect(side.getByLabel('Control share')).toHaveValue('50');
  await addOnEdge(page, 'Add a step on path "Control" of "A/B test"', 'End');
  await expect(page.getByRole('group', { name: 'End: End' })).toHaveCount(1);
  // The other path by keyboard alone: focus "+", open its menu with Enter, arrow down to End, Enter.
  await page.getByRole('button', { name: 'Add a step on path "Variant A" of "A/B test"', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: 'Add a step on path "Variant A" of "A/B test"' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Activation', exact: true })).toBeFocused();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'End', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'End: End' })).toHaveCount(2);

  // Node search finds the wait and selects it; on the canvas Delete removes it, Ctrl+Z brings it back.
  await page.getByRole('button', { name: 'Find a step' }).click();
  await page
    .getByRole('dialog', { name: 'Find a step' })
    .getByRole('combobox', { name: 'Step name or kind' })
    .fill('Wait 3');
  await page.getByRole('option', { name: /^Wait 3 days · Wait/ }).click();
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toBeFocused();
  await page.keyboard.press('Delete');
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toBeVisible();
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toBeVisible();
  // The context menu runs the same actions: Duplicate copies the step after itself; Ctrl+Z takes it back.
  await page.getByRole('group', { name: 'Wait: Wait 3 days' }).click({ button: 'right' });
  await page.getByRole('menu', { name: 'Step actions' }).getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('group', { name: 'Wait: Wait 3 days' })).toHaveCount(1);

  // Stage 2, added from the journey settings, entered by buyers; an End at its start.
  await page.locator('.react-flow__pane').click({ position: { x: 8, y: 8 } });
  await side.getByRole('button', { name: 'Add stage' }).click();
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await page.getByRole('group', { name: 'Stage 2: Stage 2' }).click();
  await side.getByLabel('Stage name').fill('Nurture');
  await choose(page, side, 'Entry criteria', 'Made a purchase');
  // An activation step whose activation is created from the step: connection, schedule, columns.
  await addOnEdge(page, 'Add a step at the start of stage 2', 'Activation');
  await page.getByRole('group', { name: 'Activation: Activation' }).click();
  await side.getByRole('button', { name: 'Create activation' }).click();
  const create = page.getByRole('dialog', { name: 'Create activation' });
  await create.getByLabel('Activation name').fill('Thank-you e-mail');
  await create.getByText('Saved connection', { exact: true }).click();
  await choose(page, create, 'Connection', 'crm_build');
  await create.getByLabel('Send every column').check();
  await create.getByRole('button', { name: 'Create activation' }).click();
  await expect(page.getByText('The activation was saved.')).toBeVisible();
  await expect(side.getByRole('combobox', { name: 'Activation it triggers' })).toHaveValue('Thank-you e-mail');
  // Palette drag and drop: an End dropped on the "+" after the activation.
  await page
    .getByRole('navigation', { name: 'Step palette' })
    .getByRole('button', { name: 'Add End' })
    .dragTo(page.getByRole('button', { name: 'Add a step after "Activation"', exact: true }));
  await expect(page.getByRole('group', { name: 'End: End' })).toHaveCount(3);

  await expect(page.getByRole('status').filter({ hasText: 'No problems: ready to launch.' })).toBeVisible();
  const launch = page.getByRole('button', { name: 'Launch', exact: true });
  await expect(launch).toBeEnabled();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The journey was saved.')).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  const before = await nodeNames(page);
  expect(before).toEqual(
    expect.arrayContaining([
      'Stage 1: Welcome',
      'Stage 2: Nurture',
      'Wait: Wait 3 days',
      'Decision point: Decision point',
      'Merge: Merge',
      'A/B test: A/B test',
      'End: End',
    ]),
  );

  const edgesBefore = await edgeTriples(page);
  expect(edgesBefore.length).toBeGreaterThanOrEqual(10);
  await page.reload();
  await expect(page.getByRole('group', { name: 'A/B test: A/B test' })).toBeVisible();
  expect(await nodeNames(page)).toEqual(before);
  // The same graph: every connection from the same step's exit to the same step.
  expect(await edgeTriples(page)).toEqual(edgesBefore);

  await launch.click();
  const confirm = page.getByRole('dialog', { name: 'Launch journey' });
  await confirm.getByRole('button', { name: 'Launch' }).click();
  await expect(page.getByLabel('State: Launched')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Add a step/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Wait' })).toBeDisabled();

  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByLabel('State: Paused')).toBeVisible();
  // Activations stay editable after launch, but not their schedule while the journey is paused.
  await page.getByRole('button', { name: 'Find a step' }).click();
  await page
    .getByRole('dialog', { name: 'Find a step' })
    .getByRole('combobox', { name: 'Step name or kind' })
    .fill('Activation');
  await page.getByRole('option', { name: /^Activation · Activation · Stage 2( · |$)/ }).click();
  await side.getByRole('button', { name: 'Edit activation' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit activation' });
  await expect(edit.getByText('Schedule locked while paused')).toBeVisible();
  await expect(edit.getByRole('combobox', { name: 'Schedule' })).toBeDisabled();
  await expect(edit.getByLabel('Activation name')).toBeEnabled();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(page.getByLabel('State: Launched')).toBeVisible();

  // A launched journey is edited as a new draft version; the dialog says what its launch does to profiles.
  await page.getByRole('button', { name: 'Edit as new draft', exact: true }).click();
  const version = page.getByRole('dialog', { name: 'Edit as a new draft' });
  await expect(version).toContainText('Profiles at a step you leave unchanged keep their place and progress');
  await version.getByRole('button', { name: 'Make the draft version' }).click();
  await expect(page.getByRole('heading', { name: 'Spring welcome (new version)' })).toBeVisible();
  await expect(page.getByLabel('State: Draft')).toBeVisible();
  await expect(page.getByRole('group', { name: 'A/B test: A/B test' })).toBeVisible();
  expect(await nodeNames(page)).toEqual(before);

  await page.getByRole('link', { name: '← Journeys' }).click();
  await page.getByLabel('Search journeys by name').fill('new version');
  const table = page.getByRole('table', { name: 'Journeys' });
  await expect(table.getByRole('link', { name: 'Spring welcome (new version)' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Spring welcome', exact: true })).toHaveCount(0);
});

test('a View user sees the canvas read-only and cannot change anything', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'view');
  const id = await createJourneyByApi(page, world, realisticJourneyAttributes(demoRefsOf(world)));
  const email = 'viewer@e2e.test';
  const password = 'viewer password 123';
  const user = await page.request.post('/console-api/users', {
    headers: { 'x-svc-console': '1' },
    data: { name: 'Vera Viewer', email, password, administrator: false },
  });
  expect(user.status(), await user.text()).toBe(200);
  const userId = ((await user.json()) as { user: { id: number } }).user.id;
  const grant = await page.request.put(`/entities/folders/${world.rootFolderId}/permissions`, {
    headers: { 'x-svc-console': '1' },
    data: { permissions: [{ userId, permission: 'view' }] },
  });
  expect(grant.status(), await grant.text()).toBe(200);
  await signOut(page);

  const viewer = await browser.newPage();
  await signIn(viewer, email, password);
  await viewer.goto(`/journeys/${id}`);
  await expect(viewer.getByRole('heading', { name: 'Spring welcome and loyalty' })).toBeVisible();
  await expect(viewer.getByText('You can view this journey but not change it.')).toBeVisible();
  await expect(viewer.getByRole('group', { name: 'Decision point: Where are they active?' })).toBeVisible();
  for (const name of ['Duplicate', 'Pause', 'Undo', 'Delete']) {
    await expect(viewer.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  // Save and Launch are shown disabled, with the reason, so the viewer knows before trying.
  for (const name of ['Save', 'Launch']) {
    const button = viewer.getByRole('button', { name, exact: true });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button).toHaveAccessibleDescription(/You have View permission on this journey’s folder/);
  }
  await expect(viewer.getByRole('button', { name: /^Add a step/ })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Add Wait' })).toBeDisabled();

  await viewer.getByRole('group', { name: 'Activation: Welcome e-mail' }).click();
  const side = viewer.getByRole('complementary', { name: 'Selected item settings' });
  await expect(side.getByText('Read-only')).toBeVisible();
  await expect(side.getByLabel('Name', { exact: true })).toBeDisabled();
  await expect(side.getByRole('button', { name: 'Delete step' })).toBeDisabled();
  await viewer.keyboard.press('Delete');
  await expect(viewer.getByRole('group', { name: 'Activation: Welcome e-mail' })).toBeVisible();

  const patch = await viewer.request.patch(`/entities/journeys/${id}`, {
    headers: { 'x-svc-console': '1' },
    data: { id, type: 'journey', attributes: { name: 'Changed' } },
  });
  expect(patch.status()).toBe(403);
  await viewer.close();
});
