import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, patchJourneyByApi, repeatBuyersStage } from './journey-setup';

/**
 * Editing a live journey: "Edit as new draft" makes a draft version; its launch dialog counts the profiles
 * that keep their place and those that leave; once launched it replaces the source, which stays paused.
 */

const CONSOLE = { 'x-svc-console': '1' };
const stepId = (n: number) => `0000f1${String(n).padStart(2, '0')}-vers-4000-8000-${String(n).padStart(12, '0')}`;

interface Customer {
  profileKey: string;
  status: string;
  stepId: string | null;
}

test('a launched journey edited as a new version keeps the profiles at unchanged steps', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const world = await buildJourneyWorld(page, 'version');
  const s = world.segments;
  const stages = (waitDays: number) => [
    {
      name: 'Welcome',
      entryCriteria: { name: 'Everyone', segmentId: s.everyone, description: null },
      milestone: { name: 'Bought twice', segmentId: s.repeat, description: null },
      exitCriterias: [],
      rootStep: stepId(1),
      steps: {
        [stepId(1)]: { type: 'WaitStep', name: 'Settle in', waitStep: waitDays, waitStepUnit: 'day', next: stepId(2) },
        [stepId(2)]: { type: 'End', name: 'Welcomed' },
      },
    },
    repeatBuyersStage(world, stepId(3)),
  ];
  const base = {
    name: 'Versioned welcome',
    allowReentry: false,
    goal: { name: 'Shops in France', segmentId: s.france, description: null },
  };
  const sourceId = await createJourneyByApi(page, world, { ...base, journeyStages: stages(3) });
  const stored = await (await page.request.get(`/entities/journeys/${sourceId}`, { headers: CONSOLE })).json();
  await patchJourneyByApi(page, sourceId, { ...stored.data.attributes, state: 'launched' });
  const run = await page.request.post(`/entities/journeys/${sourceId}/run`, { headers: CONSOLE });
  expect(run.status(), await run.text()).toBe(200);

  await page.goto(`/journeys/${sourceId}`);
  await page.getByRole('button', { name: 'Edit as new draft', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit as a new draft' });
  await expect(dialog).toContainText('in a stage you remove, leave the journey');
  await dialog.getByRole('button', { name: 'Make the draft version' }).click();
  await expect(page.getByRole('heading', { name: 'Versioned welcome (new version)' })).toBeVisible();
  const versionId = /\/journeys\/(\d+)/.exec(page.url())?.[1] ?? '';
  expect(versionId).not.toBe(sourceId);
  await expect(page.getByText(`A draft version: launching it replaces journey ${sourceId}`)).toBeVisible();

  // The version waits five days instead of three: the six profiles waiting in stage 1 leave; the four in
  // stage 2 (an unchanged End) keep their place.
  const draft = await (await page.request.get(`/entities/journeys/${versionId}`, { headers: CONSOLE })).json();
  const changed = draft.data.attributes.journeyStages.map((stage: Record<string, unknown>, i: number) =>
    i === 0 ? { ...stage, steps: stages(5)[0]?.steps } : stage,
  );
  await patchJourneyByApi(page, versionId, { ...draft.data.attributes, journeyStages: changed });
  await page.reload();
  await page.getByRole('button', { name: 'Launch', exact: true }).click();
  const launch = page.getByRole('dialog', { name: 'Launch journey' });
  // The title names the journey this version replaces.
  const takeover = launch.getByRole('region', { name: 'Replaces “Versioned welcome”' });
  await expect(takeover).toContainText('profiles keep their place');
  await expect(takeover.getByTestId('handover-keep')).toHaveText('4');
  await expect(takeover.getByTestId('handover-leave')).toHaveText('6');
  await launch.getByRole('button', { name: 'Launch', exact: true }).click();
  await expect(page.getByLabel('State: Launched')).toBeVisible();
  // Launched, the version is the journey: its name loses "(new version)", and the header says where its
  // profiles came from instead of calling it a draft.
  await expect(page.getByRole('heading', { name: 'Versioned welcome', exact: true })).toBeVisible();
  await expect(page.getByText(/A draft version/)).toHaveCount(0);
  await expect(
    page.getByText(`A new version: the profiles in journey ${sourceId} at its launch were carried over`, {
      exact: false,
    }),
  ).toBeVisible();
  await page.screenshot({ path: '../docs/screenshots/journey-version-launched.png' });

  const moved = (await (
    await page.request.get(`/entities/journeys/${versionId}/customers?status=all`, { headers: CONSOLE })
  ).json()) as { data: Customer[] };
  expect(moved.data.filter((c) => c.status === 'active').map((c) => c.stepId)).toEqual(Array(4).fill(stepId(3)));
  expect(moved.data.filter((c) => c.status === 'left')).toHaveLength(6);

  // The source is replaced: paused for good, with a link to its successor and no Resume.
  await page.goto(`/journeys/${sourceId}`);
  await expect(page.getByLabel('State: Paused')).toBeVisible();
  await expect(page.getByText(/Replaced by journey/)).toBeVisible();
  await expect(page.getByRole('link', { name: versionId, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toHaveCount(0);
});
