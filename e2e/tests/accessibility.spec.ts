import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { insertRows, issueQuery } from './data-seed';
import { signIn } from './helpers';
import { openRealisticDraft } from './journey-setup';

/** Every page of the navigation, and the heading that says it has drawn. */
const PAGES: [path: string, heading: string][] = [
  ['/overview', 'Overview'],
  ['/data/databases', 'Databases'],
  ['/data/query', 'Query'],
  ['/data/jobs', 'Jobs'],
  ['/data/bulk-loads', 'Bulk loads'],
  ['/data/sync', 'Warehouse sync'],
  ['/data/connections', 'Result connections'],
  ['/parent-segments', 'Parent segments'],
  ['/journeys', 'Journeys'],
  ['/settings/users', 'Users'],
  ['/settings/api-keys', 'API keys'],
  ['/settings/sso', 'Single sign-on'],
  ['/settings/audit-log', 'Audit log'],
];

/** The serious and critical WCAG 2.0/2.1 A and AA violations axe-core finds on the page, one line each. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary ?? ''}`));
}

test('the sign-in page has no serious accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('no page of the navigation has a serious accessibility violation', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  // Lists with rows in them: their badges, dates and secondary text are what axe has to read.
  await insertRows(page, 'a11y_db', 'events', [{ time: 1_700_000_000, name: 'first' }]);
  await issueQuery(page, 'a11y_db', 'SELECT COUNT(1) FROM events');
  const found: Record<string, string[]> = {};
  for (const [path, heading] of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[path] = violations;
  }
  expect(found).toEqual({});
});

test('the first Tab reaches "Skip to content", which moves focus to the page', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys', exact: true })).toBeVisible();
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).not.toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  // The next Tab goes into the page, past the header and the navigation.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation').locator(':focus')).toHaveCount(0);
  await expect(page.getByRole('banner').locator(':focus')).toHaveCount(0);
});

test('the journey canvas has no serious accessibility violation', async ({ page }) => {
  test.setTimeout(90_000);
  await openRealisticDraft(page, 'a11y_canvas', { width: 1440, height: 900 });
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
  // Names are what each control shows (WCAG 2.5.3); what is more is read as a description.
  const wait = page.getByRole('navigation', { name: 'Step palette' }).getByRole('button', { name: 'Add Wait' });
  await expect(wait).toHaveAccessibleName('Add Wait');
  await expect(wait).toHaveAccessibleDescription('Wait a number of days');
  await expect(page.getByRole('group', { name: 'Stage 1: Welcome', exact: true })).toBeVisible();
  // The specs share one account, and data-connections.spec starts from no result connection.
  const removed = await page.request.post('/v3/result/delete/crm_a11y_canvas', { headers: { 'x-svc-console': '1' } });
  expect(removed.status()).toBe(200);
});
