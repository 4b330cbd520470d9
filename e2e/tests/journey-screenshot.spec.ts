import { expect, test } from '@playwright/test';
import { realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';
import {
  buildJourneyWorld,
  createActivations,
  createJourneyByApi,
  demoRefsOf,
  patchJourneyByApi,
} from './journey-setup';

test('a realistic journey on the canvas, ready to launch, attached as a screenshot', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 2200, height: 1100 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'shot');
  const refs = demoRefsOf(world);
  const id = await createJourneyByApi(page, world, realisticJourneyAttributes(refs));
  const [welcome, coupon, push, reminder] = await createActivations(page, world, id, [
    'Welcome e-mail',
    'Coupon e-mail',
    'App push',
    'Reminder e-mail',
  ]);
  await patchJourneyByApi(
    page,
    id,
    realisticJourneyAttributes({
      ...refs,
      activations: {
        welcome: welcome ?? null,
        coupon: coupon ?? null,
        push: push ?? null,
        reminder: reminder ?? null,
      },
    }),
  );

  await page.goto(`/journeys/${id}`);
  await expect(page.getByRole('heading', { name: 'Spring welcome and loyalty' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Decision point: Where are they active?' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'No problems: ready to launch.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Launch', exact: true })).toBeEnabled();
  // Shift+1 fits the journey to the canvas (the shortcut of "Fit to screen"); then select the decision point.
  await page.keyboard.press('Shift+1');
  await page.getByRole('group', { name: 'Decision point: Where are they active?' }).click();
  await expect(
    page.getByRole('complementary', { name: 'Selected item settings' }).getByLabel('Path 1 segment'),
  ).toHaveValue('Customers in Japan');
  const path = testInfo.outputPath('journey-canvas.png');
  await page.screenshot({ path });
  await testInfo.attach('journey-canvas', { path, contentType: 'image/png' });
});
