import { expect, type Locator, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, launchableJourney, openRealisticDraft } from './journey-setup';

/**
 * What the canvas shows: Fit to screen brings every node (or, for a large journey, the start at half size)
 * into the part of the canvas no panel covers, the "+" buttons never sit on one another, and Save and Launch leave the view where the user put it.
 */

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

const boxesOf = (locator: Locator) =>
  locator.evaluateAll((elements) =>
    elements.map((e) => {
      const r = e.getBoundingClientRect();
      return { name: e.getAttribute('aria-label') ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );

/** The boxes of the panels floating over the canvas (none when they are closed). */
const panelBoxes = async (page: Page) => [
  ...(await boxesOf(page.getByTestId('palette-panel'))),
  ...(await boxesOf(page.getByTestId('settings-panel'))),
];

/** Every card `locator` finds lies inside the canvas and outside the panels floating over it. */
async function expectVisible(page: Page, locator: Locator, atLeast: number) {
  const canvas = (await page.getByRole('region', { name: 'Journey canvas' }).boundingBox()) as Box;
  const panels = await panelBoxes(page);
  const nodes = await boxesOf(locator);
  expect(nodes.length).toBeGreaterThanOrEqual(atLeast);
  for (const node of nodes) {
    expect(inside(node, canvas), `"${node.name}" lies inside the canvas`).toBe(true);
    for (const panel of panels) expect(overlaps(node, panel), `a panel covers "${node.name}"`).toBe(false);
  }
}

const settled = (check: () => Promise<void>) =>
  expect
    .poll(() =>
      check().then(
        () => true,
        () => false,
      ),
    )
    .toBe(true);

const zoomOf = (page: Page) =>
  page.locator('.react-flow__viewport').evaluate((e) => new DOMMatrix(getComputedStyle(e).transform).a);

test('Fit to screen shows every node beside the panels when it can, else the start at half size', async ({ page }) => {
  test.setTimeout(90_000);
  await openRealisticDraft(page, 'view_fit', { width: 1440, height: 900 });
  const every = page.locator('.react-flow__node:not(.react-flow__node-lane)');
  const starts = page.locator('.react-flow__node[data-id^="start-"]');

  // Focus mode with the panels closed: the whole journey fits at a readable size.
  await page.getByRole('button', { name: 'Focus mode' }).click();
  await page.getByRole('button', { name: 'Step palette and problems' }).click();
  await page.getByRole('button', { name: 'Settings panel' }).click();
  await expect(page.getByTestId('settings-panel')).toHaveCount(0);
  await expect(page.getByTestId('palette-panel')).toHaveCount(0);
  // Shift+1 from the canvas, as the tooltip says.
  await page.getByRole('group', { name: 'Wait: Wait 7 days', exact: true }).focus();
  await page.keyboard.press('Shift+Digit1');
  await settled(() => expectVisible(page, every, 20));
  expect(await zoomOf(page)).toBeGreaterThanOrEqual(0.5);
  await page.screenshot({ path: '../docs/screenshots/journey-fit-to-screen-focus.png' });

  // With both panels open the journey would need zoom 0.33 (text 4 px): the fit stops at half size and
  // shows the start of every stage beside the palette, none of it under a panel.
  await page.getByRole('button', { name: 'Step palette and problems' }).click();
  await page.getByRole('button', { name: 'Settings panel' }).click();
  await expect(page.getByTestId('settings-panel')).toBeVisible();
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await settled(async () => expect(await zoomOf(page)).toBeCloseTo(0.5, 3));
  await settled(() => expectVisible(page, starts, 3));
  await page.screenshot({ path: '../docs/screenshots/journey-fit-to-screen-panels.png' });
});

test('where decision paths join a merge, their "+" buttons sit on their own paths, not on one another', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'view_plus');
  const s = world.segments;
  const id = (n: number) => `0000f3${String(n).padStart(2, '0')}-plus-4000-8000-${String(n).padStart(12, '0')}`;
  const path = (n: number, name: string, segmentId: string | null) => ({
    id: id(n),
    name,
    excludedPath: segmentId === null,
    segmentId,
    next: id(2),
  });
  const journeyId = await createJourneyByApi(page, world, {
    name: 'Paths that join',
    allowReentry: false,
    goal: null,
    journeyStages: [
      {
        name: 'Split and join',
        entryCriteria: { name: 'Everyone', segmentId: s.everyone, description: null },
        milestone: null,
        exitCriterias: [],
        rootStep: id(1),
        steps: {
          [id(1)]: {
            type: 'DecisionPoint',
            name: 'Which country?',
            branches: [path(11, 'Japan', s.japan), path(12, 'USA', s.usa), path(13, 'Elsewhere', null)],
          },
          [id(2)]: { type: 'Merge', next: id(3) },
          [id(3)]: { type: 'End', name: 'Done' },
        },
      },
    ],
  });
  await page.goto(`/journeys/${journeyId}`);
  await expect(page.getByRole('group', { name: 'Decision point: Which country?', exact: true })).toBeVisible();
  const pluses = await boxesOf(page.getByRole('button', { name: /^Add a step / }));
  expect(pluses.map((p) => p.name).sort()).toEqual([
    'Add a step after "Merge"',
    'Add a step at the start of stage 1',
    'Add a step on path "Elsewhere" of "Which country?"',
    'Add a step on path "Japan" of "Which country?"',
    'Add a step on path "USA" of "Which country?"',
  ]);
  const stacked = pluses.flatMap((a, i) =>
    pluses.slice(i + 1).flatMap((b) => (overlaps(a, b) ? [`"${a.name}" and "${b.name}"`] : [])),
  );
  expect(stacked).toEqual([]);
  // Each path's "+" is on its own row of the decision point, left of the merge: one "+" at the join.
  const merge = (await page.getByRole('group', { name: /^Merge: / }).boundingBox()) as Box;
  const point = (await page.getByRole('group', { name: 'Decision point: Which country?' }).boundingBox()) as Box;
  for (const plus of pluses.filter((p) => p.name.includes(' on path '))) {
    const middle = plus.x + plus.width / 2;
    expect(middle - (point.x + point.width), plus.name).toBeLessThan((merge.x - (point.x + point.width)) / 2);
  }
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await expect(page.getByRole('group', { name: /^Merge: / })).toBeInViewport();
  await page.screenshot({ path: '../docs/screenshots/journey-paths-join-merge.png' });
});

test('the view keeps its zoom and position after Save and after Launch', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'view_keep');
  const journeyId = await createJourneyByApi(page, world, launchableJourney(world, 'Kept view', 'view'));
  await page.goto(`/journeys/${journeyId}`);
  const viewport = page.locator('.react-flow__viewport');
  const transform = () => viewport.evaluate((e) => (e as HTMLElement).style.transform);
  const wait = page.getByRole('group', { name: 'Wait: Settle in', exact: true });
  await expect(wait).toBeVisible();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  await expect.poll(transform).toContain('scale(0.');
  const chosen = await transform();

  await wait.click();
  await page.getByRole('complementary', { name: 'Selected item settings' }).getByLabel('Wait length (days)').fill('4');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The journey was saved.' })).toBeVisible();
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  expect(await transform()).toBe(chosen);

  await page.getByRole('button', { name: 'Launch', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Launch journey' })
    .getByRole('button', { name: 'Launch', exact: true })
    .click();
  await expect(page.getByLabel('State: Launched')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Wait: Settle in', exact: true })).toBeVisible();
  expect(await transform()).toBe(chosen);
});
