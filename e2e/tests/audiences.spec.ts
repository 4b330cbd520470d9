import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

const DAY = 86_400;

/**
 * Customers with a signup Unix time and a string date, and their orders. Times are relative to now (the
 * server's clock is real here). Who is "signed up within the past 7 days AND has at least 2 orders in the
 * past 30 days": c1 (3 recent orders) and c4 (2); not c2 (1 recent), c3 and c7 (signed up too long ago),
 * c5 (no orders), c6 (1 recent). So 2 of 7.
 */
function seed(now: number) {
  const signups: Record<string, number> = { c1: 2, c2: 3, c3: 20, c4: 6, c5: 1, c6: 5, c7: 9 };
  const orders: Record<string, number[]> = {
    c1: [1, 5, 10],
    c2: [4, 40, 50],
    c3: [1, 2],
    c4: [10, 25],
    c6: [5, 45],
    c7: [1, 2, 3],
  };
  const customers = Object.entries(signups).map(([id, days]) => ({
    customer_id: id,
    plan: id === 'c1' ? 'gold' : 'basic',
    signup_time: now - days * DAY,
    signup_date: new Date((now - days * DAY) * 1000).toISOString().slice(0, 10),
    time: now - days * DAY,
  }));
  const orderRows = Object.entries(orders).flatMap(([id, ago]) =>
    ago.map((days, i) => ({ customer_id: id, amount: 10.5 + i, time: now - days * DAY })),
  );
  return { customers, orders: orderRows, expected: 2, profiles: 7 };
}

/** Seeds through the API: a master key made with the console session, a database, then the records API. */
async function seedThroughApi(page: Page, database: string) {
  const created = await page.request.post('/console-api/api-keys', {
    headers: { 'x-svc-console': '1' },
    data: { type: 'master', name: 'Audiences spec seeding' },
  });
  expect(created.ok()).toBe(true);
  const { key } = (await created.json()) as { key: string };
  const auth = { authorization: `SVC1 ${key}` };
  expect((await page.request.post(`/v3/database/create/${database}`, { headers: auth })).ok()).toBe(true);
  const data = seed(Math.floor(Date.now() / 1000));
  for (const [table, events] of [
    ['customers', data.customers],
    ['orders', data.orders],
  ] as const) {
    const res = await page.request.post(`/${database}/${table}`, { headers: auth, data: { events } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  return data;
}

test('a parent segment is built in the wizard and a segment counts what the data implies', async ({ page }) => {
  // One long journey through four pages, two builds' worth of jobs and live counts on a shared machine.
  test.setTimeout(90_000);
  const database = `shop_${Date.now().toString(36)}`;
  await signIn(page);
  const data = await seedThroughApi(page, database);

  // The wizard: master table and key, attributes, a behavior with columns selected individually.
  await page.getByRole('link', { name: 'Parent segments' }).click();
  await page.getByRole('link', { name: 'Create parent segment' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Shoppers');
  await page.getByRole('combobox', { name: 'Database', exact: true }).selectOption(database);
  await page.getByRole('combobox', { name: 'Master table', exact: true }).selectOption('customers');
  await page.getByRole('combobox', { name: 'Key column', exact: true }).selectOption('customer_id');
  await page.getByRole('button', { name: 'Next' }).click();
  for (const column of ['plan', 'signup_time', 'signup_date']) {
    await page.getByRole('checkbox', { name: column, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Next' }).click();
  // "Add behavior" says what it waits for while it is disabled, one step after another.
  const addBehavior = page.getByRole('button', { name: 'Add behavior' });
  await expect(addBehavior).toBeDisabled();
  await expect(addBehavior).toHaveAccessibleDescription('Name the behavior to add it.');
  await expect(page.getByText('Name the behavior to add it.')).toBeVisible();
  await page.getByLabel('Behavior table', { exact: true }).selectOption('orders');
  await expect(addBehavior).toHaveAccessibleDescription('Choose the column matching customer_id to add it.');
  await page.getByLabel('Column matching customer_id', { exact: true }).selectOption('customer_id');
  await expect(addBehavior).toHaveAccessibleDescription('Choose columns, or All columns, to add it.');
  const columns = page.getByRole('group', { name: 'Behavior columns' });
  await columns.getByRole('checkbox', { name: 'time', exact: true }).check();
  await expect(addBehavior).toBeEnabled();
  await expect(addBehavior).toHaveAccessibleDescription('');
  await columns.getByRole('checkbox', { name: 'amount', exact: true }).check();
  await page.getByRole('button', { name: 'Add behavior' }).click();
  await expect(page.getByRole('list', { name: 'Chosen behaviors' })).toContainText('orders');
  // A second behavior on the same table takes all columns: none of its column types can change alone.
  await page.getByLabel('Behavior name', { exact: true }).fill('all_orders');
  await page.getByLabel('Behavior table', { exact: true }).selectOption('orders');
  await page.getByLabel('Column matching customer_id', { exact: true }).selectOption('customer_id');
  await page.getByRole('switch', { name: 'All columns' }).check();
  await page.getByRole('button', { name: 'Add behavior' }).click();
  await expect(page.getByRole('list', { name: 'Chosen behaviors' })).toContainText('all_orders');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Create parent segment' }).click();

  // The parent segment page: the build finishes with every profile.
  await expect(page.getByRole('heading', { name: 'Shoppers' })).toBeVisible();
  const parentId = /\/parent-segments\/(\d+)$/.exec(page.url())?.[1];
  expect(parentId).toBeDefined();
  const build = page.getByRole('group', { name: 'Build' });
  await expect(build.getByText('Built')).toBeVisible();
  await expect(build.getByLabel('Population')).toHaveText(String(data.profiles));

  // A string column cannot become a timestamp, and the page says why.
  const dateSwitch = page.getByRole('switch', { name: 'signup_date is a timestamp' });
  await expect(dateSwitch).toBeDisabled();
  await expect(dateSwitch).toHaveAccessibleDescription(/Convert the column to Unix time/);

  const allColumnsSwitch = page.getByRole('switch', { name: 'all_orders.time is a timestamp' });
  await expect(allColumnsSwitch).toBeDisabled();
  await expect(allColumnsSwitch).toHaveAccessibleDescription(/Select the columns individually/);

  // The Unix time column can: switching saves the whole record.
  const signupSwitch = page.getByRole('switch', { name: 'signup_time is a timestamp' });
  await expect(signupSwitch).toBeEnabled();
  // The switch follows the saved record, so it turns on once the PUT has answered.
  await signupSwitch.click();
  await expect(page.getByText('The attribute signup_time is now a timestamp.')).toBeVisible();
  await expect(signupSwitch).toBeChecked();
  const record = await (await page.request.get(`/audiences/${parentId}`)).json();
  expect(record.attributes.find((a: { name: string }) => a.name === 'signup_time').type).toBe('timestamp');

  // The builder: time filters on the timestamp, a behavior count in a window, a live count.
  await page.getByRole('link', { name: 'Create segment' }).click();
  await page.getByRole('textbox', { name: 'Segment name', exact: true }).fill('Recent buyers');
  await page.getByRole('button', { name: 'Add attribute condition' }).click();
  const first = page.getByRole('group', { name: 'Condition 1', exact: true });
  await first.getByLabel('Column', { exact: true }).selectOption('signup_time');
  await expect(first.getByLabel('Operator', { exact: true }).locator('option')).toContainText([
    'is within the past',
    'is within the next',
    'is between the dates',
    'is before',
    'is after',
    'is empty',
  ]);
  await first.getByLabel('Operator', { exact: true }).selectOption({ label: 'is within the past' });
  await first.getByLabel('Amount', { exact: true }).fill('7');
  await first.getByLabel('Unit', { exact: true }).selectOption('day');
  // Time filters are offered only on timestamp columns.
  await first.getByLabel('Column', { exact: true }).selectOption('plan');
  await expect(
    first.getByLabel('Operator', { exact: true }).locator('option', { hasText: 'within the past' }),
  ).toHaveCount(0);
  await first.getByLabel('Column', { exact: true }).selectOption('signup_time');
  await first.getByLabel('Operator', { exact: true }).selectOption({ label: 'is within the past' });
  await first.getByLabel('Amount', { exact: true }).fill('7');

  const live = page.getByRole('status', { name: 'Live population' });
  await expect(live).toHaveAttribute('data-settled', 'true');
  await expect(live).toHaveText('5');

  await page.getByRole('button', { name: 'Add behavior condition' }).click();
  const second = page.getByRole('group', { name: 'Condition 2', exact: true });
  await second.getByLabel('Behavior', { exact: true }).selectOption('orders');
  await second.getByLabel('Count', { exact: true }).selectOption({ label: 'at least' });
  await second.getByLabel('Number of rows', { exact: true }).fill('2');
  await second.getByLabel('Window', { exact: true }).selectOption({ label: 'within the past' });
  await second.getByLabel('Window amount', { exact: true }).fill('30');
  await second.getByLabel('Window unit', { exact: true }).selectOption('day');

  await expect(live).toHaveText(String(data.expected));
  await expect(live).toHaveAttribute('data-settled', 'true');
  await expect(page.getByRole('table', { name: 'Sample profiles' }).getByRole('row')).toHaveCount(data.expected + 1);

  await page.getByRole('button', { name: 'Save segment' }).click();
  await expect(page.getByRole('heading', { name: 'Segment Recent buyers' })).toBeVisible();
  const segmentId = /\/segments\/(\d+)$/.exec(page.url())?.[1];
  const counted = await (await page.request.get(`/audiences/${parentId}/segments/${segmentId}/population`)).json();
  expect(counted.population).toBe(data.expected);
  await expect(live).toHaveText(String(counted.population));

  // The segment sits in the parent segment's folder tree; folders can be made there.
  await page.getByRole('link', { name: 'Shoppers', exact: true }).click();
  const tree = page.getByRole('tree', { name: 'Folders and segments' });
  await expect(tree.getByRole('link', { name: 'Recent buyers' })).toBeVisible();
  await tree.getByRole('button', { name: 'New folder in Shoppers' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder name', { exact: true }).fill('Campaigns');
  await dialog.getByRole('button', { name: 'New folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(tree.getByRole('treeitem', { name: 'Folder Campaigns' })).toBeVisible();
  await tree.getByRole('button', { name: 'Rename Campaigns' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename folder' });
  await rename.getByLabel('Folder name', { exact: true }).fill('Winter campaigns');
  await rename.getByRole('button', { name: 'Rename folder' }).click();
  await expect(tree.getByRole('treeitem', { name: 'Folder Winter campaigns' })).toBeVisible();
  await tree.getByRole('button', { name: 'Delete Winter campaigns' }).click();
  await page.getByRole('dialog', { name: 'Delete folder' }).getByRole('button', { name: 'Delete folder' }).click();
  await expect(tree.getByRole('treeitem', { name: /Winter campaigns/ })).toHaveCount(0);
  await expect(tree.getByRole('link', { name: 'Recent buyers' })).toBeVisible();
});
