import { expect, type Page, test } from '@playwright/test';
import { openRealisticDraft } from './journey-setup';

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

/** The realistic demo journey as a draft, opened in a large window (1680×1000). */
async function openDraft(page: Page, tag: string) {
  return openRealisticDraft(page, tag, { width: 1680, height: 1000 });
}

/** The accessible names of the selected nodes of the canvas. */
const selectedNodes = (page: Page) =>
  page.locator('.react-flow__node.selected').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));

test('a step added from an edge\'s "+" menu is the one selected afterwards', async ({ page }) => {
  test.setTimeout(90_000);
  const { decision } = await openDraft(page, 'plus_select');
  // Opened at a legible zoom, the decision point lies past the canvas's right edge (under the settings
  // panel); Fit to screen brings it and its paths into the canvas, as a user would do before clicking.
  // Both boxes are read on every poll: a box is null while its element is being re-rendered, which is
  // "not yet", not an error.
  const region = page.getByRole('region', { name: 'Journey canvas' });
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await expect
    .poll(async () => {
      const [box, canvas] = [await decision.boundingBox(), await region.boundingBox()];
      return box !== null && canvas !== null && box.x + box.width < canvas.x + canvas.width;
    })
    .toBe(true);
  await decision.click();
  expect(await selectedNodes(page)).toEqual(['Decision point: Where are they active?']);

  const merges = page.getByRole('group', { name: /^Merge: / });
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

/** Makes the draft dirty with an edit that keeps it valid: the welcome wait waits 4 days. */
async function lengthenWait(page: Page) {
  await page.getByRole('group', { name: 'Wait: Wait 2 days', exact: true }).click();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await side.getByLabel('Wait length (days)').fill('4');
  await expect(page.getByRole('group', { name: 'Wait: Wait 4 days', exact: true })).toBeVisible();
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("in focus mode the toast after Save covers none of the journey's buttons, and closes with its button", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openDraft(page, 'toast_place');
  await page.getByRole('button', { name: 'Focus mode' }).click();
  await expect(page.getByRole('button', { name: 'Exit focus' })).toBeVisible();
  await lengthenWait(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const toast = page
    .getByRole('alert')
    .filter({ hasText: 'The draft was saved with 7 problems to fix before launch.' });
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox()) as Box;
  for (const name of ['Exit focus', 'Save', 'Launch', 'Run now', 'Duplicate']) {
    const box = (await page.getByRole('button', { name, exact: true }).boundingBox()) as Box;
    expect(overlaps(toastBox, box), `the toast covers "${name}"`).toBe(false);
  }
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toHaveCount(0);
});

test('at 1440 px the state badge reads in full, and an A/B test names each variant alike in both fields', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openDraft(page, 'labels');
  await page
    .getByRole('group', { name: /^A\/B test: / })
    .first()
    .click();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  for (const field of ['Control name', 'Control share', 'Variant A name', 'Variant A share']) {
    await expect(side.getByLabel(field, { exact: true })).toBeVisible();
  }
  await expect(side.getByLabel('Variant 1 name')).toHaveCount(0);

  await page.setViewportSize({ width: 1440, height: 900 });
  const state = page.getByLabel('State: Draft');
  await expect(state).toHaveText('Draft');
  const label = state.locator('.mantine-Badge-label');
  expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});
