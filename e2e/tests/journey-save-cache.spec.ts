import { expect, type Request, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, launchableJourney } from './journey-setup';

/**
 * A save puts the server's answer in the console's cache: the editor shows the saved journey from the PATCH's
 * answer, without reading the journey (or its activations) again.
 */

test.use({ screenshot: 'only-on-failure' });

test('a saved journey shows from the answer of its save, with no refetch of the journey', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'save_cache');
  const journeyId = await createJourneyByApi(page, world, launchableJourney(world, 'Cached', 'cach'));
  await page.goto(`/journeys/${journeyId}`);
  const save = page.getByRole('button', { name: 'Save', exact: true });
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await side.getByLabel('Journey name').fill('Cached and renamed');
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // Every request for this journey from the click until the console says the save is done. The console's own
  // refreshes after a save end before it says so (the mutation waits for them), so none can come later.
  const journeyRequests: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith(`/entities/journeys/${journeyId}`)) journeyRequests.push(r);
  });
  const patched = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && new URL(r.url()).pathname === `/entities/journeys/${journeyId}`,
  );
  await save.click();
  expect((await patched).status()).toBe(200);
  await expect(page.getByRole('alert').filter({ hasText: 'The journey was saved.' })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  await expect(side.getByLabel('Journey name')).toHaveValue('Cached and renamed');
  expect(journeyRequests.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual([
    `PATCH /entities/journeys/${journeyId}`,
  ]);

  // What the cache holds is what the server stored.
  await page.reload();
  await expect(side.getByLabel('Journey name')).toHaveValue('Cached and renamed');
});
