import { expect, test } from '@playwright/test';
import { insertRows, issueQuery } from './data-seed';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, patchJourneyByApi, repeatBuyersStage } from './journey-setup';

/** The overview's live figures as charts, each linking to its page; the demo notice's place stays below them. */

const DB = 'e2e_overview';
const CONSOLE = { 'x-svc-console': '1' };

test('shows rows ingested today, jobs today, launched journeys, parent segment sizes and the biggest tables, each linking on', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const rows = Array.from({ length: 120 }, (_, i) => ({ time: 1_700_000_000 + i, page: `/p${i % 7}` }));
  await insertRows(page, DB, 'overview_views', rows);
  const world = await buildJourneyWorld(page, 'overview');
  // A launched journey that ran once: its repeat buyers entered.
  const journeyId = await createJourneyByApi(page, world, {
    name: 'Overview thanks',
    allowReentry: false,
    goal: { name: 'Shops in France', segmentId: world.segments.france, description: null },
    journeyStages: [repeatBuyersStage(world, '0000f1ee-over-4000-8000-000000000001')],
  });
  const stored = await (await page.request.get(`/entities/journeys/${journeyId}`, { headers: CONSOLE })).json();
  await patchJourneyByApi(page, journeyId, { ...stored.data.attributes, state: 'launched' });
  const ran = await page.request.post(`/entities/journeys/${journeyId}/run`, { headers: CONSOLE });
  expect(ran.status(), await ran.text()).toBe(200);
  const jobId = await issueQuery(page, DB, 'SELECT count(*) FROM overview_views');
  await expect
    .poll(async () => page.evaluate(async (id) => (await (await fetch(`/v3/job/status/${id}`)).json()).status, jobId), {
      timeout: 60_000,
    })
    .toBe('success');

  await page.goto('/');
  const ingested = page.getByRole('region', { name: 'Rows ingested per day' });
  // Other tests of the run ingest too: today's figure holds at least these rows.
  const label = await ingested.getByRole('figure').getAttribute('aria-label');
  const today = Number(label?.split(', ').at(-1));
  expect(today).toBeGreaterThanOrEqual(120);
  await expect(ingested.locator('.recharts-bar-rectangle').first()).toBeVisible();

  const jobs = page.getByRole('region', { name: 'Jobs today' });
  await expect(jobs.getByRole('figure', { name: /^Jobs today by state: .*success \d+/ })).toBeVisible();
  await expect(jobs.locator('.recharts-pie-sector').first()).toBeVisible();

  const journeys = page.getByRole('region', { name: 'Launched journeys' });
  await expect(journeys.getByRole('figure')).toHaveAttribute('aria-label', /Overview thanks [1-9]\d*\/\d+/);

  const segments = page.getByRole('region', { name: 'Parent segment sizes' });
  await expect(segments.getByRole('figure')).toHaveAttribute('aria-label', /Shop customers overview \d+/);

  const tables = page.getByRole('region', { name: 'Biggest tables' });
  await expect(tables.getByRole('figure')).toHaveAttribute('aria-label', new RegExp(`${DB}\\.overview_views 120`));

  // A slice opens the jobs of its state; a title opens its page.
  // Dispatched, not clicked at the sector's centre: with many jobs of one state (the other tests' jobs share
  // the account), a thin slice's centre lies under the big one.
  await jobs.locator('path.recharts-sector[name="success"]').dispatchEvent('click');
  await expect(page).toHaveURL(/\/data\/jobs\?status=success/);
  await page.goBack();
  await page.getByRole('link', { name: 'Rows ingested per day' }).click();
  await expect(page).toHaveURL(/\/data\/databases$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Jobs today' }).click();
  await expect(page).toHaveURL(/\/data\/jobs$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Launched journeys' }).click();
  await expect(page).toHaveURL(/\/journeys$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Parent segment sizes' }).click();
  await expect(page).toHaveURL(/\/parent-segments$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Biggest tables' }).click();
  await expect(page).toHaveURL(/\/data\/databases$/);
  expect(world.audienceId).not.toBe('');
});
