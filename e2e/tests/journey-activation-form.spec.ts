import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { buildJourneyWorld, createJourneyByApi, openCreateActivation } from './journey-setup';

/**
 * The activation form made on a step: it says what is missing before anything is sent, in the user's
 * words; a webhook's body template decides the fields; a new activation sends promptly by default.
 */

test.use({ actionTimeout: 15_000, screenshot: 'only-on-failure', viewport: { width: 1440, height: 900 } });

const id = (n: number) => `0000f5${String(n).padStart(2, '0')}-form-4000-8000-${String(n).padStart(12, '0')}`;

test('the webhook activation form checks before submit, needs no columns with a body template, and sends promptly', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const world = await buildJourneyWorld(page, 'actform');
  const s = world.segments;
  const journeyId = await createJourneyByApi(page, world, {
    name: 'Form check',
    allowReentry: false,
    goal: null,
    journeyStages: [
      {
        name: 'Welcome',
        entryCriteria: { name: 'Everyone', segmentId: s.everyone, description: null },
        milestone: null,
        exitCriterias: [],
        rootStep: id(1),
        steps: {
          [id(1)]: { type: 'Activation', name: 'Welcome webhook', journeyActivationStepId: null, next: id(2) },
          [id(2)]: { type: 'End', name: 'Welcomed' },
        },
      },
    ],
  });
  const { dialog } = await openCreateActivation(page, journeyId, 'Welcome webhook');

  // Prompt by default: no time of day to wait for.
  await expect(dialog.getByRole('combobox', { name: 'Schedule' })).toHaveValue('Promptly, at each journey run');
  await expect(dialog.getByLabel('Time of day (HH:MM)')).toBeDisabled();

  // Submitted with nothing chosen: every problem shows on its field, in words, and nothing is sent.
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/syndications')) posts.push(r.url());
  });
  await dialog.getByLabel('Activation name').fill('Welcome webhook');
  await dialog.getByLabel('Webhook URL').fill('https://hooks.example.com/welcome');
  await dialog.getByRole('combobox', { name: 'Schedule' }).click();
  await page.getByRole('option', { name: 'Daily' }).click();
  await dialog.getByLabel('Time of day (HH:MM)').fill('9am');
  await dialog.getByRole('button', { name: 'Create activation' }).click();
  await expect(dialog.getByText('Choose the columns to send, or turn on "Send every column".')).toBeVisible();
  await expect(dialog.getByText('Enter a time of day as HH:MM (24-hour), for example 09:00.')).toBeVisible();
  await expect(dialog).not.toContainText('allColumns');
  await page.screenshot({ path: '../docs/screenshots/activation-form-checked.png' });
  expect(posts).toEqual([]);

  // Back to prompt sending; a body template names the fields, so the column choice gives way to it.
  await dialog.getByRole('combobox', { name: 'Schedule' }).click();
  await page.getByRole('option', { name: 'Promptly, at each journey run' }).click();
  await dialog.getByLabel('Body template').fill('{"email": "{{email}}"}');
  await expect(dialog.getByText('The body template decides the fields each request sends.')).toBeVisible();
  await expect(dialog.getByLabel('Columns to send')).toHaveCount(0);
  await page.screenshot({ path: '../docs/screenshots/activation-form-template.png' });
  await dialog.getByRole('button', { name: 'Create activation' }).click();
  await expect(page.getByText('The activation was saved.')).toBeVisible();
  expect(posts).toHaveLength(1);

  const answer = await page.request.get(`/entities/journeys/${journeyId}/syndications`, {
    headers: { 'x-svc-console': '1' },
  });
  const stored = (await answer.json()) as { data: Array<{ attributes: { syndication_params: unknown } }> };
  expect(stored.data[0]?.attributes.syndication_params).toMatchObject({
    name: 'Welcome webhook',
    scheduleType: 'none',
    columns: [],
    allColumns: false,
    connectorConfig: { bodyTemplate: '{"email": "{{email}}"}' },
  });
});
