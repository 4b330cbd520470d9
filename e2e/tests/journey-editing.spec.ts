import { expect, type Page, test } from '@playwright/test';
import { realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, demoRefsOf, edgeTriples, type JourneyWorld } from './journey-setup';

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

/** The realistic demo journey as a draft; its activation steps name no activation yet (launch problems). */
async function openDemoJourney(page: Page, tag: string): Promise<{ id: string; world: JourneyWorld }> {
  await page.setViewportSize({ width: 1680, height: 1000 });
  await signIn(page);
  const world = await buildJourneyWorld(page, tag);
  const id = await createJourneyByApi(page, world, realisticJourneyAttributes(demoRefsOf(world)));
  await page.goto(`/journeys/${id}`);
  await expect(page.getByRole('group', { name: 'Decision point: Where are they active?' })).toBeVisible();
  return { id, world };
}

const node = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const focusedNodeLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('.react-flow__node')?.getAttribute('aria-label') ?? null);

test('keyboard: Tab moves node to node, Shift+F10 opens the actions, copy and paste, insert after', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openDemoJourney(page, 'keys');
  const welcome = node(page, 'Activation: Welcome e-mail');
  await welcome.focus();
  // Tab skips the "+" buttons of the edges: the next tab stop is another node.
  await page.keyboard.press('Tab');
  expect(await focusedNodeLabel(page)).not.toBeNull();
  expect(await page.evaluate(() => document.activeElement?.classList.contains('jc-edge-button'))).toBe(false);

  // Shift+F10 on the focused step: the context menu, with "Insert after…" and the editor's actions.
  await welcome.focus();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: 'Step actions' });
  await expect(menu).toBeVisible();
  for (const item of ['Insert after…', 'Copy', 'Paste', 'Duplicate', 'Delete', 'Undo', 'Redo']) {
    await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(welcome).toBeFocused();

  // The ContextMenu key does the same; "Insert after…" leads to the menu of step kinds.
  await page.keyboard.press('ContextMenu');
  await menu.getByRole('menuitem', { name: 'Insert after…' }).click();
  await page.getByRole('menu', { name: 'Insert after' }).getByRole('menuitem', { name: 'Merge', exact: true }).click();
  await expect(page.getByRole('group', { name: /^Merge: / })).toHaveCount(3);
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('group', { name: /^Merge: / })).toHaveCount(2);

  // Copy and paste a step with the keyboard: pasted after the focused step.
  // (Enter selects the focused step; copy and paste act on the selection.)
  await node(page, 'Wait: Wait 2 days').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+c');
  await welcome.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+v');
  await expect(node(page, 'Wait: Wait 2 days')).toHaveCount(2);
  const edges = await edgeTriples(page);
  const welcomeId = await welcome.getAttribute('data-id');
  const pasted = edges.find((e) => e.source === welcomeId);
  expect(await page.locator(`.react-flow__node[data-id="${pasted?.target}"]`).getAttribute('aria-label')).toBe(
    'Wait: Wait 2 days',
  );
});

test('stage criteria in place, the goal on the canvas, path order, problems and launch reasons', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openDemoJourney(page, 'inplace');
  const side = page.getByRole('complementary', { name: 'Selected item settings' });

  // The goal is on the canvas; choosing it opens the journey settings at its name.
  const goal = page.getByRole('button', {
    name: 'Goal: Second purchase · Bought twice or more. Open the journey settings',
  });
  await expect(goal).toBeVisible();
  await goal.click();
  await expect(side.getByRole('heading', { name: 'Journey settings' })).toBeVisible();
  await expect(side.getByLabel('Goal name')).toBeFocused();

  // The entry criteria of stage 2, changed from its card with the keyboard.
  const entry = page.getByRole('button', { name: 'Entry criteria of stage 2: Made a purchase. Edit' });
  await entry.focus();
  await page.keyboard.press('Enter');
  const popover = page.getByRole('dialog', { name: 'Entry criteria of stage 2' });
  await expect(popover.getByRole('combobox', { name: 'Entry criteria' })).toBeFocused();
  await popover.getByRole('combobox', { name: 'Entry criteria' }).click();
  await page.getByRole('option', { name: 'Customers in France', exact: true }).click();
  await expect(
    page.getByRole('button', { name: 'Entry criteria of stage 2: Customers in France. Edit' }),
  ).toBeVisible();
  const shot = testInfo.outputPath('stage-criteria-in-place.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('stage-criteria-in-place', { path: shot, contentType: 'image/png' });
  await page.keyboard.press('Escape');
  await expect(popover).toHaveCount(0);
  // The milestone, changed in place by typing in its picker.
  await page.getByRole('button', { name: 'Milestone of stage 1: Made a purchase. Edit' }).click();
  await page
    .getByRole('dialog', { name: 'Milestone of stage 1' })
    .getByRole('combobox', { name: 'Milestone' })
    .fill('Customers in the US');
  await page.getByRole('option', { name: 'Customers in the US', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Milestone of stage 1: Customers in the US. Edit' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Reordering decision paths shows the new order on the node. The decision point lies beyond the right edge of the
  // canvas at the opening zoom: the user shows the whole journey first (clicking a node outside the canvas's view
  // made Playwright scroll the canvas's clipped container, and the click landed on whatever was drawn there).
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  const decision = node(page, 'Decision point: Where are they active?');
  await decision.click();
  await side.getByRole('button', { name: 'Move path "Opened the app" up' }).click();
  await expect(decision.locator('.jc-row-name')).toHaveText([
    '1. Opened the app',
    '2. Bought in a store',
    '3. Everyone else',
  ]);

  // Launch is disabled while activation steps name no activation, and says why.
  const launch = page.getByRole('button', { name: 'Launch', exact: true });
  await expect(launch).toBeDisabled();
  await page.getByRole('button', { name: /^Why can't I launch\?/ }).click();
  const reasons = page.getByRole('dialog', { name: 'What stops the launch' });
  await expect(reasons.getByText(/does not say which activation to run/).first()).toBeVisible();
  await reasons.getByRole('button').first().click();
  await expect(reasons).toHaveCount(0);

  // A problem in the list focuses and selects its step.
  await page
    .getByRole('list', { name: /^Problems/ })
    .getByRole('button', { name: /does not say which activation/ })
    .first()
    .click();
  const focused = await focusedNodeLabel(page);
  expect(focused).toMatch(/^Activation: /);
  await expect(side.getByRole('heading', { name: 'Activation' })).toBeVisible();
  await expect(page.locator('.react-flow__node.selected')).toHaveAttribute('aria-label', focused as string);
});

test('save, reload and see the same graph (edges included); the unsaved-changes guard', async ({ page }) => {
  test.setTimeout(120_000);
  await openDemoJourney(page, 'reload');
  // An edit that changes edges: a wait inserted after the welcome e-mail.
  await page.getByRole('button', { name: 'Add a step after "Welcome e-mail"', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Wait', exact: true }).click();
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // Leaving asks first; staying keeps the edit.
  await page.getByRole('link', { name: '← Journeys' }).click();
  const guard = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(guard).toBeVisible();
  await guard.getByRole('button', { name: 'Stay' }).click();
  await expect(guard).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Wait: Wait 1 day' })).toBeVisible();

  // The demo journey's activations do not exist in this account: the draft saves, and the toast says it
  // still has those problems to fix before launch (issue 32: drafts with problems save, launch waits).
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The draft was saved with 7 problems to fix before launch.')).toBeVisible();
  const before = await edgeTriples(page);
  expect(before.length).toBeGreaterThan(15);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Wait: Wait 1 day' })).toBeVisible();
  expect(await edgeTriples(page)).toEqual(before);

  // Unsaved again: "Leave without saving" leaves. (The step is inserted from the keyboard: the edge's "+" after
  // it can sit under the settings panel, depending on how the reloaded canvas is fitted.)
  await node(page, 'Wait: Wait 1 day').focus();
  await page.keyboard.press('ContextMenu');
  await page.getByRole('menu', { name: 'Step actions' }).getByRole('menuitem', { name: 'Insert after…' }).click();
  await page.getByRole('menu', { name: 'Insert after' }).getByRole('menuitem', { name: 'Merge', exact: true }).click();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('link', { name: '← Journeys' }).click();
  await guard.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page.getByRole('table', { name: 'Journeys' })).toBeVisible();
});
