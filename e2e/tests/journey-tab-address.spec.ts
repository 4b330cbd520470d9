import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, launchableJourney, patchJourneyByApi } from './journey-setup';

/**
 * A launched journey opened at its Profiles or Simulation tab by address: those tabs wait for the caller's
 * permission, and until it is known the page shows a loader, not the canvas (laid out and drawn for nothing, then
 * replaced: at 1,000,000 profiles a fifth of the Profiles tab's first second, see docs/benchmarks.md).
 */

/** Notes, from before the console's scripts run, whether a canvas node was ever in the page. */
const watchCanvas = () => {
  const seen = { canvas: false };
  Object.assign(window, { __canvasSeen: seen });
  new MutationObserver(() => {
    if (document.querySelector('.react-flow__node')) seen.canvas = true;
  }).observe(document, { childList: true, subtree: true });
};
const canvasSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __canvasSeen: { canvas: boolean } }).__canvasSeen.canvas);

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('a launched journey opened at its Profiles or Simulation tab shows that tab without drawing the canvas first', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'tabaddr');
  const journeyId = await createJourneyByApi(page, world, launchableJourney(world, 'Opened by address', 'tadr'));
  await patchJourneyByApi(page, journeyId, { state: 'launched' });
  await page.addInitScript(watchCanvas);

  await page.goto(`/journeys/${journeyId}?tab=profiles`);
  await expect(page.getByText('No profiles match these filters.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Profiles' })).toHaveAttribute('aria-selected', 'true');
  expect(await canvasSeen(page)).toBe(false);

  await page.goto(`/journeys/${journeyId}?tab=simulation`);
  await expect(page.getByRole('form', { name: 'Simulation settings' })).toBeVisible();
  expect(await canvasSeen(page)).toBe(false);

  // The watch does see the canvas once it is shown.
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await expect(page.getByRole('group', { name: 'End: Welcomed' })).toBeVisible();
  expect(await canvasSeen(page)).toBe(true);
});
