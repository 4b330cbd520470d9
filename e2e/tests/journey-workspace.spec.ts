import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';
import {
  buildJourneyWorld,
  createActivations,
  createJourneyByApi,
  demoRefsOf,
  type JourneyWorld,
  openCreateActivation,
  patchJourneyByApi,
} from './journey-setup';

/**
 * The canvas as a marketer's workspace at 1440×900: focus mode, a fit view that keeps text legible,
 * Find (Ctrl+F), an activation made on the step itself with a test send, the launch estimate, and
 * Run now sending the deliveries it queued.
 */

const WINDOW = { width: 1440, height: 900 };
/** The smallest zoom "Fit to screen" goes to (MIN_FIT_TO_SCREEN_ZOOM of the canvas). */
const FIT_TO_SCREEN_ZOOM = 0.5;
const TOKEN = 'Bearer e2e-token-1234567890';
const TEMPLATE = '{"email": "{{email}}", "country": "{{attributes.country}}", "test": {{test}}}';
const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
const id = (n: number) => `0000f0${String(n).padStart(2, '0')}-work-4000-8000-${String(n).padStart(12, '0')}`;

/** A two-stage journey of 40 steps: two chains of 19 waits, each ending in an End. */
function longJourney(world: JourneyWorld) {
  let n = 0;
  const chain = (label: string) => {
    const ids = Array.from({ length: 20 }, () => id(++n));
    const steps: Record<string, unknown> = {};
    ids.forEach((stepId, i) => {
      steps[stepId] =
        i === ids.length - 1
          ? { type: 'End', name: `${label} done` }
          : { type: 'WaitStep', name: `${label} day ${i + 1}`, waitStep: 1, waitStepUnit: 'day', next: ids[i + 1] };
    });
    return { rootStep: ids[0], steps };
  };
  return {
    name: 'Forty steps',
    allowReentry: false,
    goal: { name: 'Bought', segmentId: world.segments.buyers, description: null },
    journeyStages: [
      {
        name: 'Nurture',
        entryCriteria: { name: 'Everyone', segmentId: world.segments.everyone, description: null },
        milestone: null,
        exitCriterias: [],
        ...chain('Nurture'),
      },
      {
        name: 'Stage 2',
        entryCriteria: { name: 'Repeat', segmentId: world.segments.repeat, description: null },
        milestone: null,
        exitCriterias: [],
        ...chain('Repeat'),
      },
    ],
  };
}

/** The smallest node text on screen (font size × canvas zoom), and the zoom. */
async function smallestNodeText(page: Page) {
  return page.evaluate(() => {
    const viewport = document.querySelector('.react-flow__viewport');
    const scale = viewport ? new DOMMatrix(getComputedStyle(viewport).transform).a : 0;
    let min = Number.POSITIVE_INFINITY;
    let texts = 0;
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.react-flow__node *'))) {
      const hasText = Array.from(el.childNodes).some((c) => c.nodeType === Node.TEXT_NODE && c.textContent?.trim());
      if (!hasText || el.getClientRects().length === 0) continue;
      texts++;
      min = Math.min(min, Number.parseFloat(getComputedStyle(el).fontSize) * scale);
    }
    return { min, scale, texts };
  });
}

/** Waits until the notifications have closed by themselves (they pause while the pointer is on them). */
async function toastsGone(page: Page) {
  await page.mouse.move(5, WINDOW.height - 5);
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
}

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure', viewport: WINDOW });

test('focus mode gives the canvas the window, fit view keeps text legible, and Ctrl+F selects a step', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'workspace');
  const journeyId = await createJourneyByApi(page, world, longJourney(world));
  await page.goto(`/journeys/${journeyId}`);
  await expect(page.getByRole('heading', { name: 'Forty steps' })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Wait: / })).not.toHaveCount(0);
  // Internal names do not leak: a stage named after its number shows once.
  await expect(page.getByText('Stage 2 · Stage 2')).toHaveCount(0);

  await page.getByRole('button', { name: 'Focus mode' }).click();
  const canvas = page.getByRole('region', { name: 'Journey canvas' });
  await expect(page.getByRole('button', { name: 'Exit focus' })).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box).not.toBeNull();
  const share = ((box?.width ?? 0) * (box?.height ?? 0)) / (WINDOW.width * WINDOW.height);
  expect(share).toBeGreaterThanOrEqual(0.85);

  // On opening, every node text is at least 11 px on screen.
  await expect
    .poll(async () => (await smallestNodeText(page)).scale, { intervals: [100, 200, 300] })
    .toBeCloseTo(11 / 12, 3);
  const opened = await smallestNodeText(page);
  expect(opened.texts).toBeGreaterThan(40);
  expect(opened.min).toBeGreaterThanOrEqual(11);
  // Fit to screen zooms out to show more, but a journey this long would need 0.13 to fit: it stops at
  // half size (text 6 px), with the start in view, rather than shrinking the steps into dots.
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await expect
    .poll(async () => (await smallestNodeText(page)).scale, { intervals: [100, 200, 300] })
    .toBeCloseTo(FIT_TO_SCREEN_ZOOM, 3);
  expect((await smallestNodeText(page)).min).toBeGreaterThanOrEqual(12 * FIT_TO_SCREEN_ZOOM);
  // The journey is larger than the window at that zoom, so it scrolls; the overview map helps.
  await expect(page.locator('.react-flow__minimap')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Wait: Nurture day 1', exact: true })).toBeInViewport();
  await expect(page.getByRole('group', { name: 'End: Repeat done', exact: true })).not.toBeInViewport();

  // Panels close, and focus mode and the panels are remembered on the next visit.
  await page.getByRole('button', { name: 'Settings panel' }).click();
  await expect(page.getByRole('complementary', { name: 'Selected item settings' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Exit focus' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Settings panel' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Settings panel' }).click();

  // A new stage comes into view (the journey is larger than the window, so it would be off-screen).
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await expect(page.locator('.jc-lane-title', { hasText: /^Stage 3$/ })).toHaveCount(0);
  await side.getByRole('button', { name: 'Add stage' }).click();
  await expect(page.locator('.jc-lane-title', { hasText: /^Stage 3$/ })).toBeInViewport();
  // A palette step dropped on the new stage's dashed placeholder lands there.
  const placeholder = page.locator('.react-flow__node[data-id^="open-2-"] .jc-open');
  await expect(placeholder).toBeInViewport();
  await page.getByRole('button', { name: 'Add Wait' }).dragTo(placeholder);
  await expect(page.getByRole('group', { name: /^Wait: Wait \d+ days?$/ })).toHaveCount(1);
  await expect(page.locator('.react-flow__node[data-id^="open-2-"]')).toHaveCount(1);

  // Ctrl+F: the results are visible above the dialog's overlay; a click selects the step and goes to it.
  await expect(page.getByRole('group', { name: 'Wait: Repeat day 17', exact: true })).not.toBeInViewport();
  await page.locator('.react-flow__node[data-id="start-2"]').click();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('dialog', { name: 'Find a step' });
  await find.getByRole('combobox', { name: 'Step name or kind' }).fill('repeat day 17');
  const hit = find.getByRole('option', { name: 'Repeat day 17 · Wait · Stage 2' });
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(find).toHaveCount(0);
  const picked = page.getByRole('group', { name: 'Wait: Repeat day 17', exact: true });
  await expect(picked).toBeFocused();
  await expect(picked).toBeInViewport();
  await expect(page.locator('.react-flow__node.selected')).toHaveAttribute('data-id', id(37));
  await expect(side.getByLabel('Name', { exact: true })).toHaveValue('Repeat day 17');

  // And by keyboard: arrows move through the results, Enter picks (the pointer rests away from the list).
  await page.mouse.move(5, 5);
  await page.keyboard.press('Control+f');
  await find.getByRole('combobox', { name: 'Step name or kind' }).fill('nurture day');
  // The list has followed the typing before the keys move through it.
  await expect(find.getByRole('option', { name: /^Nurture day 2 · / })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(find.getByRole('option', { name: /^Nurture day 2 · / })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(find).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Wait: Nurture day 2', exact: true })).toBeFocused();
  await page.getByRole('button', { name: 'Exit focus' }).click();
});

test('a webhook activation made on the step (method, header, body template) gets its test, the launch estimate matches the first run, and Run now delivers with it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const received: Array<{ method: string; authorization: string; body: Record<string, unknown> }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        authorization: req.headers.authorization ?? '',
        body: JSON.parse(raw),
      });
      res.statusCode = 200;
      res.end('{"accepted":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/journeys`;
  try {
    await signIn(page);
    const world = await buildJourneyWorld(page, 'inline');
    const s = world.segments;
    const journeyId = await createJourneyByApi(page, world, {
      name: 'Webhook welcome',
      allowReentry: false,
      goal: { name: 'Shops in France', segmentId: s.france, description: null },
      journeyStages: [
        {
          name: 'Welcome',
          entryCriteria: { name: 'Everyone', segmentId: s.everyone, description: null },
          milestone: { name: 'Bought twice', segmentId: s.repeat, description: null },
          exitCriterias: [],
          rootStep: id(81),
          steps: {
            [id(81)]: { type: 'Activation', name: 'Welcome webhook', journeyActivationStepId: null, next: id(82) },
            [id(82)]: { type: 'End', name: 'Welcomed' },
          },
        },
        {
          name: 'Repeat buyers',
          entryCriteria: { name: 'Bought twice', segmentId: s.repeat, description: null },
          milestone: null,
          exitCriterias: [],
          rootStep: id(83),
          steps: { [id(83)]: { type: 'End', name: 'Thanked' } },
        },
      ],
    });
    const { side, dialog } = await openCreateActivation(page, journeyId, 'Welcome webhook');
    await dialog.getByLabel('Activation name').fill('Welcome webhook');
    await expect(dialog.getByText(/https:\/\/ only; http:\/\/ and private addresses only where/)).toBeVisible();
    await dialog.getByLabel('Webhook URL').fill(hookUrl);
    await dialog.getByText('PUT', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'PUT' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill('Authorization');
    await dialog.getByLabel('Header 1 value').fill(TOKEN);
    // An unknown field is refused, naming it, before anything is sent.
    await dialog.getByLabel('Body template').fill('{"email": "{{emial}}"}');
    await dialog.getByRole('button', { name: 'Send a test' }).click();
    await expect(dialog.getByRole('status')).toContainText('"emial"');
    expect(received).toHaveLength(0);
    await dialog.getByLabel('Body template').fill(TEMPLATE);
    await dialog.getByRole('button', { name: 'Send a test' }).click();
    await expect(dialog.getByRole('status')).toContainText('The webhook answered HTTP 200');
    await expect(dialog.getByLabel('Response body')).toHaveText('{"accepted":true}');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'PUT', authorization: TOKEN });
    expect(received[0]?.body).toEqual({ email: expect.stringContaining('@'), country: expect.any(String), test: true });
    // A new activation sends at each run by default; the body template decides the fields, so no columns.
    await expect(dialog.getByRole('combobox', { name: 'Schedule' })).toHaveValue('Promptly, at each journey run');
    await expect(dialog.getByText('The body template decides the fields each request sends.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create activation' }).click();
    await expect(page.getByText('The activation was saved.')).toBeVisible();
    // Saved, the header value is shown only masked.
    await side.getByRole('button', { name: 'Edit activation' }).click();
    const editing = page.getByRole('dialog', { name: 'Edit activation' });
    await expect(editing.getByLabel('Header 1 value')).toHaveAttribute('placeholder', /^Saved ••••••••7890;/);
    await expect(editing.getByLabel('Header 1 value')).toHaveValue('');
    await editing.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The journey was saved.')).toBeVisible();
    await toastsGone(page);

    // The launch dialog estimates each stage's entries and spells out the overlap rule.
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const launch = page.getByRole('dialog', { name: 'Launch journey' });
    const estimate = launch.getByRole('region', { name: 'Launch estimate' });
    await expect(estimate).toContainText('Stages are tried from the last to the first');
    // 12 customers: the two in France are in the goal, four bought twice and start in stage 2.
    await expect(launch.getByTestId('estimate-enter-1')).toHaveText('6');
    await expect(launch.getByTestId('estimate-enter-2')).toHaveText('4');
    await expect(launch.getByTestId('estimate-goal')).toContainText('2 profiles already in the goal segment');
    const entering = [
      Number(await launch.getByTestId('estimate-enter-1').textContent()),
      Number(await launch.getByTestId('estimate-enter-2').textContent()),
    ];
    await page.screenshot({ path: resolve(SCREENSHOTS, 'launch-estimate.png') });
    await launch.getByRole('button', { name: 'Launch', exact: true }).click();
    await expect(page.getByLabel('State: Launched')).toBeVisible();
    await toastsGone(page);

    // Run now moves the profiles and sends the webhook deliveries it queued, at once.
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect(page.getByText(`${entering[0]} profiles sent to activations.`)).toBeVisible();
    // One request per profile, with the method, header and filled template.
    expect(received).toHaveLength(1 + (entering[0] ?? -1));
    for (const delivery of received.slice(1)) {
      expect(delivery).toMatchObject({ method: 'PUT', authorization: TOKEN });
      expect(delivery.body).toEqual({ email: expect.stringContaining('@'), country: expect.any(String), test: false });
    }

    // The first run's counts equal the estimate.
    await page.getByRole('button', { name: 'Fit to screen' }).click();
    for (const [index, n] of entering.entries()) {
      await expect(
        page.getByRole('img', { name: new RegExp(`^Stage ${index + 1} figures: ${n} entered,`) }),
      ).toBeVisible();
    }

    // The Deliveries tab lists the delivery with its status and response code.
    await page.getByRole('tab', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries of Welcome webhook' });
    const row = deliveries.getByRole('row', { name: /Delivered/ });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(1)).toHaveText(String(entering[0]));
    await expect(row.getByRole('cell').nth(3)).toHaveText('200');
  } finally {
    await new Promise((done) => server.close(done));
  }
});

test('screenshots: a realistic journey in focus mode at 1440×900', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'focusshot');
  const refs = demoRefsOf(world);
  const journeyId = await createJourneyByApi(page, world, realisticJourneyAttributes(refs));
  const [welcome, coupon, push, reminder] = await createActivations(page, world, journeyId, [
    'Welcome e-mail',
    'Coupon e-mail',
    'App push',
    'Reminder e-mail',
  ]);
  await patchJourneyByApi(
    page,
    journeyId,
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
  await page.goto(`/journeys/${journeyId}`);
  await page.getByRole('button', { name: 'Focus mode' }).click();
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await expect.poll(async () => (await smallestNodeText(page)).min).toBeGreaterThanOrEqual(12 * FIT_TO_SCREEN_ZOOM);
  await expect(page.getByRole('group', { name: 'Decision point: Where are they active?' })).toBeVisible();
  await page.screenshot({ path: resolve(SCREENSHOTS, 'focus-mode-fit.png') });
  await page.getByRole('group', { name: 'Decision point: Where are they active?' }).click();
  await expect(
    page.getByRole('complementary', { name: 'Selected item settings' }).getByLabel('Path 1 segment'),
  ).toHaveValue('Customers in Japan');
  await page.screenshot({ path: resolve(SCREENSHOTS, 'focus-mode-selected.png') });
  await page.getByRole('button', { name: 'Step palette and problems' }).click();
  await page.getByRole('button', { name: 'Settings panel' }).click();
  await page.screenshot({ path: resolve(SCREENSHOTS, 'focus-mode-canvas-only.png') });
  // Leave the workspace as other tests expect it.
  await page.getByRole('button', { name: 'Step palette and problems' }).click();
  await page.getByRole('button', { name: 'Exit focus' }).click();
});
