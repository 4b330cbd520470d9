import { expect, type Page, test } from '@playwright/test';
import { realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, demoRefsOf } from './journey-setup';

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

/** The realistic demo journey as a draft, opened at the window size the usability findings were made in. */
async function openDraft(page: Page, tag: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, tag);
  const journeyId = await createJourneyByApi(page, world, realisticJourneyAttributes(demoRefsOf(world)));
  await page.goto(`/journeys/${journeyId}`);
  const decision = page.getByRole('button', { name: 'Decision point: Where are they active?', exact: true });
  await expect(decision).toBeVisible();
  return { journeyId, decision };
}

/** The accessible names of the selected nodes of the canvas. */
const selectedNodes = (page: Page) =>
  page.locator('.react-flow__node.selected').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));

test('a step added from an edge\'s "+" menu is the one selected afterwards', async ({ page }) => {
  test.setTimeout(90_000);
  const { decision } = await openDraft(page, 'plus_select');
  await decision.click();
  expect(await selectedNodes(page)).toEqual(['Decision point: Where are they active?']);

  const merges = page.getByRole('button', { name: /^Merge: / });
  const before = await merges.count();
  await page
    .getByRole('button', { name: /^Add a step on path ".*" of "Where are they active\?"$/ })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Merge', exact: true }).click();
  await expect(merges).toHaveCount(before + 1);
  await expect.poll(() => selectedNodes(page)).toEqual([expect.stringMatching(/^Merge: /)]);
  // The settings panel follows the selection: it names the new merge, so a rename goes to it.
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await expect(side).toContainText('Merge');
});
