import { expect, type Page } from '@playwright/test';

/**
 * Seeds data through the real API from inside the signed-in page (its session cookie, the console
 * header), the way the console itself calls the server. Rows go through the records API with a
 * write-only key the test creates.
 */

async function call(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const answer = await page.evaluate(
    async ({ method, path, body, headers }) => {
      const res = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-svc-console': '1', ...headers },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    { method, path, body, headers },
  );
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
  return answer.text === '' ? {} : (JSON.parse(answer.text) as Record<string, unknown>);
}

export async function createDatabase(page: Page, db: string) {
  await call(page, 'POST', `/v3/database/create/${db}`, {});
}

export async function setDeleteProtected(page: Page, db: string, on: boolean) {
  await call(page, 'POST', `/v3/database/update/${db}`, { delete_protected: on });
}

let writeKey: string | null = null;

/** Creates the database when needed and appends the rows (the table is created by the first write). */
export async function insertRows(page: Page, db: string, table: string, rows: Record<string, unknown>[]) {
  const show = await page.evaluate(async (path) => (await fetch(path)).status, `/v3/database/show/${db}`);
  if (show === 404) await createDatabase(page, db);
  writeKey ??= String(
    (await call(page, 'POST', '/console-api/api-keys', { type: 'write-only', name: 'Data seeding' })).key,
  );
  for (let i = 0; i < rows.length; i += 500) {
    const events = rows.slice(i, i + 500);
    const answer = await call(page, 'POST', `/${db}/${table}`, { events }, { authorization: `SVC1 ${writeKey}` });
    expect(answer.imported).toBe(events.length);
  }
}

/** Issues a query job through the API and returns its id (the console's own editor is tested elsewhere). */
export async function issueQuery(page: Page, db: string, query: string): Promise<string> {
  const answer = await call(page, 'POST', `/v3/job/issue/presto/${db}`, { query });
  return String(answer.job_id);
}

export async function createBulkLoad(page: Page, settings: Record<string, unknown>) {
  await call(page, 'POST', '/v3/bulk_loads', settings);
}

/** Creates a scheduled query and runs it once for `time` (Unix seconds); returns the run's job id. */
export async function runSchedule(page: Page, name: string, settings: Record<string, unknown>, time: number) {
  await call(page, 'POST', `/v3/schedule/create/${name}`, settings);
  const answer = await call(page, 'POST', `/v3/schedule/run/${name}/${time}`, {});
  return String((answer.jobs as { job_id: number }[])[0]?.job_id);
}

/** Saves a result connection (`/v3/result/create`). */
export async function createResultConnection(page: Page, name: string, url: string) {
  await call(page, 'POST', `/v3/result/create/${name}`, { url });
}
