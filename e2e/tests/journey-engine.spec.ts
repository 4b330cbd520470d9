import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, type JourneyWorld, patchJourneyByApi } from './journey-setup';

/**
 * The journey engine in the console: a journey launched through the API, run with "Run now", its
 * figures on the canvas, its profile list, a simulation, its statistics and its deliveries.
 *
 * The seeded customers (journey-setup.ts), by id c100…c111: country JP US FR JP US JP DE FR JP US JP US,
 * orders i % 4, and c106 (DE, 2 orders) unsubscribed. The journey below, with its goal "in France",
 * therefore moves them, at one run, like this:
 * - c102 and c107 (FR) are in the goal segment: they never enter.
 * - c103, c110, c111 bought twice: they enter stage 2 "Loyal" directly and wait 7 days there.
 * - c106 is in stage 2's exit segment, so it enters stage 1, reaches its milestone (two orders), moves to
 *   stage 2 and leaves the journey there by the exit criterion "Unsubscribed".
 * - c100, c105, c108 (JP) take the "Japan" path and wait 3 days.
 * - c101, c104, c109 (US) take the "US" path, are split by the A/B test, queued for the activation and
 *   stop at the End "Sent".
 */

const CONSOLE = { 'x-svc-console': '1' };
const step = (n: number) => `0000e1${String(n).padStart(2, '0')}-engi-4000-8000-${String(n).padStart(12, '0')}`;
const S = {
  decision: step(1),
  wait: step(2),
  afterWait: step(3),
  ab: step(4),
  merge: step(5),
  activation: step(6),
  sent: step(7),
  others: step(8),
  loyalWait: step(9),
  loyalEnd: step(10),
  japan: step(11),
  usa: step(12),
  elsewhere: step(13),
  control: step(14),
  emoji: step(15),
};

function journeyAttributes(world: JourneyWorld, activationId: string | null) {
  const s = world.segments;
  return {
    name: 'Engine welcome',
    description: 'Run by the journey engine browser test',
    allowReentry: false,
    goal: { name: 'Shops in France', description: null, segmentId: s.france },
    journeyStages: [
      {
        name: 'Welcome',
        entryCriteria: { name: 'Everyone', segmentId: s.everyone, description: null },
        milestone: { name: 'Bought twice', segmentId: s.repeat, description: null },
        exitCriterias: [{ name: 'A month in the stage', exitAfter: 30, unit: 'days' }],
        rootStep: S.decision,
        steps: {
          [S.decision]: {
            type: 'DecisionPoint',
            name: 'Country',
            branches: [
              { id: S.japan, name: 'Japan', excludedPath: false, segmentId: s.japan, next: S.wait },
              { id: S.usa, name: 'US', excludedPath: false, segmentId: s.usa, next: S.ab },
              { id: S.elsewhere, name: 'Everyone else', excludedPath: true, segmentId: null, next: S.others },
            ],
          },
          [S.wait]: { type: 'WaitStep', waitStep: 3, waitStepUnit: 'day', next: S.afterWait },
          [S.afterWait]: { type: 'End', name: 'After the wait' },
          [S.ab]: {
            type: 'ABTest',
            name: 'Subject line',
            customizedSplit: true,
            uniqueId: 'customer_id',
            variants: [
              { id: S.control, name: 'Control', percentage: 50, next: S.merge },
              { id: S.emoji, name: 'Emoji subject', percentage: 50, next: S.merge },
            ],
          },
          [S.merge]: { type: 'Merge', next: S.activation },
          [S.activation]: {
            type: 'Activation',
            name: 'Welcome e-mail',
            journeyActivationStepId: activationId,
            next: S.sent,
          },
          [S.sent]: { type: 'End', name: 'Sent' },
          [S.others]: { type: 'End', name: 'Other countries' },
        },
      },
      {
        name: 'Loyal',
        entryCriteria: { name: 'Bought twice', segmentId: s.repeat, description: null },
        milestone: null,
        exitCriterias: [{ name: 'Unsubscribed', segmentId: s.unsubscribed }],
        rootStep: S.loyalWait,
        steps: {
          [S.loyalWait]: { type: 'WaitStep', waitStep: 7, waitStepUnit: 'day', next: S.loyalEnd },
          [S.loyalEnd]: { type: 'End', name: 'Loyal' },
        },
      },
    ],
  };
}

/** A launched journey with a CSV activation delivered at every engine run (notifying on success). */
async function launchJourney(page: Page, world: JourneyWorld) {
  const auth = { authorization: `SVC1 ${world.key}` };
  const created = await page.request.post('/v3/result/create/csv_engine', {
    headers: auth,
    data: { url: 'csv://welcome-mails' },
  });
  expect([200, 409]).toContain(created.status());
  const journeyId = await createJourneyByApi(page, world, journeyAttributes(world, null));
  const activation = await page.request.post(`/entities/journeys/${journeyId}/syndications`, {
    headers: CONSOLE,
    data: {
      type: 'journeyActivationStep',
      attributes: {
        syndication_params: {
          name: 'Welcome e-mail list',
          connectionId: 'csv_engine',
          scheduleType: 'none',
          timezone: 'UTC',
          columns: ['email', 'country'],
          allColumns: false,
          emailRecipients: ['crm@example.com'],
          notifyOn: ['onSuccess'],
        },
      },
    },
  });
  expect(activation.status(), await activation.text()).toBe(200);
  const activationId = ((await activation.json()) as { data: { id: string } }).data.id;
  await patchJourneyByApi(page, journeyId, { ...journeyAttributes(world, activationId), state: 'launched' });
  return journeyId;
}

/** A step node on the canvas, by its accessible name ("Wait: Wait 3 days"). */
const node = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const figure = (scope: Locator | Page, name: string) => scope.getByRole('img', { name, exact: true });
const profiles = (n: number) => `${n} profile${n === 1 ? '' : 's'}`;

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure' });

test('a marketer runs a launched journey and reads its figures, profiles, simulation and deliveries', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1680, height: 1000 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'engine');
  const journeyId = await launchJourney(page, world);

  await page.goto(`/journeys/${journeyId}`);
  await expect(page.getByRole('heading', { name: 'Engine welcome' })).toBeVisible();
  await expect(page.getByLabel('State: Launched')).toBeVisible();
  const runNow = page.getByRole('button', { name: 'Run now' });
  await expect(runNow).toBeEnabled();
  await runNow.click();
  await expect(page.getByText('The journey ran')).toBeVisible();

  // Step nodes: profiles there now and entered; decision paths; stage lanes; the journey's totals.
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  await expect(figure(node(page, 'Wait: Wait 3 days'), `${profiles(3)} here now, 3 entered`)).toBeVisible();
  const decision = node(page, 'Decision point: Country');
  await expect(figure(decision, `${profiles(0)} here now, 7 entered`)).toBeVisible();
  await expect(figure(decision, `${profiles(3)} took the path “Japan”`)).toBeVisible();
  await expect(figure(decision, `${profiles(3)} took the path “US”`)).toBeVisible();
  await expect(figure(decision, `${profiles(0)} took the path “Everyone else”`)).toBeVisible();
  await expect(figure(node(page, 'A/B test: Subject line'), `${profiles(0)} here now, 3 entered`)).toBeVisible();
  await expect(figure(node(page, 'Activation: Welcome e-mail'), `${profiles(0)} here now, 3 entered`)).toBeVisible();
  await expect(figure(node(page, 'End: Sent'), `${profiles(3)} here now, 3 entered`)).toBeVisible();
  await expect(figure(node(page, 'End: Other countries'), `${profiles(0)} here now, 0 entered`)).toBeVisible();
  await expect(figure(node(page, 'Wait: Wait 7 days'), `${profiles(3)} here now, 4 entered`)).toBeVisible();
  await expect(
    figure(
      page,
      'Stage 1 figures: 7 entered, 6 in the stage now, 1 reached the milestone, 0 left by exit criteria (A month in the stage 0)',
    ),
  ).toBeVisible();
  await expect(
    figure(
      page,
      'Stage 2 figures: 4 entered, 3 in the stage now, 0 reached the milestone, 1 left by exit criteria (Unsubscribed 1)',
    ),
  ).toBeVisible();
  const totals = page.getByRole('region', { name: 'Journey figures' });
  await expect(totals).toContainText(/Entered\s*10/);
  await expect(totals).toContainText(/In the journey\s*9/);
  await expect(totals).toContainText(/Goal “Shops in France”\s*0 reached/);
  await expect(totals).toContainText(/Left\s*1/);

  // The A/B split is a hash of customer_id: the canvas must show what the engine assigned to each profile.
  const listed = await page.request.get(`/entities/journeys/${journeyId}/customers?status=all&per_page=100`);
  expect(listed.status()).toBe(200);
  const everyone = ((await listed.json()) as { data: Array<{ variants: Array<{ variantId: string }> }> }).data;
  expect(everyone).toHaveLength(10);
  const inVariant = (id: string) => everyone.filter((c) => c.variants.some((v) => v.variantId === id)).length;
  expect(inVariant(S.control) + inVariant(S.emoji)).toBe(3);
  const ab = node(page, 'A/B test: Subject line');
  await expect(figure(ab, `${profiles(inVariant(S.control))} in the variant “Control”`)).toBeVisible();
  await expect(figure(ab, `${profiles(inVariant(S.emoji))} in the variant “Emoji subject”`)).toBeVisible();
  // A closer look at stage 1 for the attached screenshot.
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await page.getByRole('button', { name: 'Zoom In' }).click();
  await attachScreenshot(page, testInfo, 'journey-engine-canvas');

  // The profile list: who is where, filtered by stage, step and status.
  await page.getByRole('tab', { name: 'Profiles' }).click();
  const table = page.getByRole('table', { name: 'Profiles in the journey' });
  const rowOf = (key: string) =>
    table.getByRole('row').filter({ has: page.getByRole('cell', { name: key, exact: true }) });
  await expect(table.getByRole('row')).toHaveCount(1 + 9);
  await expect(rowOf('c100')).toContainText('Stage 1 · Welcome');
  await expect(rowOf('c100')).toContainText('Wait 3 days');
  await expect(rowOf('c100')).toContainText('Japan');
  await expect(rowOf('c101')).toContainText('Sent');
  await expect(rowOf('c101')).toContainText('US');
  await expect(rowOf('c103')).toContainText('Stage 2 · Loyal');
  await expect(rowOf('c103')).toContainText('Wait 7 days');
  await expect(rowOf('c102')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Stage', exact: true }).click();
  await page.getByRole('option', { name: 'Stage 1 · Welcome' }).click();
  await expect(table.getByRole('row')).toHaveCount(1 + 6);
  await page.getByRole('combobox', { name: 'Step', exact: true }).click();
  await page.getByRole('option', { name: 'Wait 3 days (Wait)' }).click();
  await expect(table.getByRole('row')).toHaveCount(1 + 3);
  for (const key of ['c100', 'c105', 'c108']) await expect(rowOf(key)).toHaveCount(1);
  await attachScreenshot(page, testInfo, 'journey-engine-profiles');
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Left the journey' }).click();
  await expect(page.getByText('No profiles match these filters.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Stage', exact: true }).click();
  await page.getByRole('option', { name: 'Stage 2 · Loyal' }).click();
  await expect(table.getByRole('row')).toHaveCount(1 + 1);
  await expect(rowOf('c106')).toContainText('Left: exit criterion (segment)');
  await attachScreenshot(page, testInfo, 'journey-engine-profiles-left');

  // A simulation of one profile, five days ahead: the wait ends and it reaches the End; nothing changes.
  await page.getByRole('tab', { name: 'Simulation' }).click();
  const settings = page.getByRole('form', { name: 'Simulation settings' });
  await settings.getByLabel('Profile key').fill('c100');
  await settings.getByLabel('Days ahead').fill('5');
  await settings.getByRole('button', { name: 'Simulate' }).click();
  const path = page.getByRole('article', { name: 'Simulated path of c100' });
  await expect(path).toContainText('Already in the journey');
  await expect(path).toContainText('Reaches End "After the wait".');
  await expect(path).toContainText('Ends at: Stage 1 · Welcome › After the wait');
  await attachScreenshot(page, testInfo, 'journey-engine-simulation');
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'In the journey', exact: true }).click();
  await page.getByRole('combobox', { name: 'Stage', exact: true }).click();
  await page.getByRole('option', { name: 'Stage 1 · Welcome' }).click();
  await expect(rowOf('c100')).toContainText('Wait 3 days');

  // Statistics: totals, the stage-to-stage flow, per-stage figures and the A/B results.
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByRole('region', { name: 'Entered the journey' })).toContainText('10');
  await expect(page.getByRole('region', { name: 'In the journey now' })).toContainText('9');
  await expect(page.getByRole('img', { name: 'Stage-to-stage flow' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Stage figures' }).getByRole('row', { name: /Stage 2 · Loyal/ }),
  ).toContainText('Unsubscribed: 1');
  const results = page.getByRole('table', { name: 'A/B test results: Subject line' });
  await expect(results.getByRole('row')).toHaveCount(3);
  await expect(results.getByRole('row', { name: /^Emoji subject/ })).toContainText(`${inVariant(S.emoji)}`);
  await attachScreenshot(page, testInfo, 'journey-engine-statistics');
  await results.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'journey-engine-ab-results');

  // Deliveries: Run now sent the three queued profiles to the CSV connection.
  await page.getByRole('tab', { name: 'Deliveries' }).click();
  const deliveries = page.getByRole('table', { name: 'Deliveries of Welcome e-mail list' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(deliveries.getByRole('row', { name: /Delivered/ })).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 150_000, intervals: [2_000] });
  const delivered = deliveries.getByRole('row', { name: /Delivered/ });
  await expect(delivered).toContainText('CSV download');
  await expect(delivered.getByRole('cell').nth(1)).toHaveText('3');
  const href = await delivered.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const file = await page.request.get(href ?? '');
  expect(file.status()).toBe(200);
  const csv = await file.text();
  for (const key of ['c101', 'c104', 'c109']) expect(csv).toContain(key);
  await expect(page.getByRole('table', { name: 'Notifications outbox' })).toContainText(
    'Activation "Welcome e-mail list" of journey Engine welcome delivered 3 profiles',
  );
  await attachScreenshot(page, testInfo, 'journey-engine-deliveries');
  // The list filters by status: no delivery failed, and All brings the delivered one back.
  const which = page.getByRole('radiogroup', { name: 'Which deliveries of Welcome e-mail list' });
  await which.getByText('Failed', { exact: true }).click();
  await expect(page.getByText('No failed deliveries.')).toBeVisible();
  await which.getByText('All', { exact: true }).click();
  await expect(deliveries.getByRole('row', { name: /Delivered/ })).toHaveCount(1);

  // The activation step's side panel lists its latest deliveries too. The canvas comes back zoomed in as it was
  // left, the step beyond the pane's edge: fit it first, as a user would, rather than let the click scroll the
  // pane's clipped box (which moves the nodes under the pointer and loses the click).
  await page.getByRole('tab', { name: 'Canvas' }).click();
  await page.getByRole('button', { name: 'Fit to screen' }).click();
  const activationStep = node(page, 'Activation: Welcome e-mail');
  await expect(activationStep).toBeInViewport();
  await activationStep.click();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await expect(side.getByRole('table', { name: 'Deliveries of Welcome e-mail list' })).toContainText('Delivered');

  // Pausing stops runs: "Run now" says why it is unavailable.
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByLabel('State: Paused')).toBeVisible();
  await expect(runNow).toBeDisabled();
  await expect(runNow).toHaveAccessibleDescription(/paused/);
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(runNow).toBeEnabled();
});
