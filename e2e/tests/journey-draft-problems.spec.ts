import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, launchableJourney } from './journey-setup';

/** A draft saves with its problems shown, as half-built work does; only the launch waits for them to be fixed. */

test.use({ screenshot: 'only-on-failure' });

test('a draft with a problem saves, keeps the problem shown after a reload, and cannot launch', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'draft_problems');
  const journeyId = await createJourneyByApi(page, world, launchableJourney(world, 'Half built', 'half'));
  await page.goto(`/journeys/${journeyId}`);
  const launch = page.getByRole('button', { name: 'Launch', exact: true });
  await expect(launch).toBeEnabled();

  // The journey loses its name: a problem for the launch, not for the draft.
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await side.getByLabel('Journey name').fill('');
  await expect(launch).toBeDisabled();
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The draft was saved with a problem to fix before launch.' }),
  ).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Launch', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: "Why can't I launch? (1)" }).click();
  await expect(page.getByRole('dialog', { name: 'What stops the launch' })).toContainText('The journey has no name');
  await page.screenshot({ path: '../docs/screenshots/journey-draft-with-problem.png' });
  const stored = await (
    await page.request.get(`/entities/journeys/${journeyId}`, { headers: { 'x-svc-console': '1' } })
  ).json();
  expect(stored.data.attributes.name).toBe('');
  expect(stored.meta.launchViolations.map((v: { code: string }) => v.code)).toEqual(['journey.name_missing']);
});
