import { benchApp, expectOk, report } from './common';

/**
 * Fair job slots (issue "Heavy work off the request loop", point 3): with the default limits, one user
 * issues more long queries than there are slots; then another user of the same account, and a user of
 * another account, each issue a short query. The figures are how long those short queries waited to
 * start and to finish while the first user saturated their share.
 */

const LONG = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const bench = await benchApp();
try {
  const call = (method: string, path: string, key: string, json?: unknown) =>
    bench.call(method, path, {
      headers: { authorization: `SVC1 ${key}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });
  const admin = bench.account.masterKey;
  await expectOk(call('POST', '/v3/database/create/web', admin));
  await expectOk(
    bench.call('POST', '/v3/user/add/bob', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=bob%40bench.local&password=long+enough+pw',
    }),
  );
  const bob = String((await expectOk(call('POST', '/v3/user/apikey/add/bob', admin))).apikey);
  const { createAccountWithAdmin } = await import('../src/accounts/seed');
  const other = await createAccountWithAdmin(bench.deps, {
    accountName: 'Other',
    email: 'other@bench.local',
    password: 'bench password 123',
  });
  await expectOk(call('POST', '/v3/database/create/web', other.masterKey));
  const jobs = bench.app.services.jobs;
  const issue = async (key: string, query: string) =>
    Number((await expectOk(call('POST', '/v3/job/issue/presto/web', key, { query }))).job_id);

  const long: number[] = [];
  for (let i = 0; i < 6; i++) long.push(await issue(admin, LONG));
  await jobs.whenStarted(long[0] as number);
  const timeShort = async (key: string) => {
    const t0 = performance.now();
    const id = await issue(key, 'SELECT 1');
    await jobs.whenStarted(id);
    const startMs = performance.now() - t0;
    const status = await jobs.whenSettled(id);
    if (status !== 'success') throw new Error(`The short query ended ${status}.`);
    return { startSeconds: startMs / 1000, doneSeconds: (performance.now() - t0) / 1000 };
  };
  const sameAccount = await timeShort(bob);
  const otherAccount = await timeShort(other.masterKey);
  const running = (await expectOk(call('GET', '/v3/job/list?status=running', admin))).count;
  const queued = (await expectOk(call('GET', '/v3/job/list?status=queued', admin))).count;
  for (const id of long) await call('POST', `/v3/job/kill/${id}`, admin);
  process.stderr.write(
    `fairness: another user's short query started in ${sameAccount.startSeconds.toFixed(3)} s, another account's in ${otherAccount.startSeconds.toFixed(3)} s\n`,
  );
  report({
    longQueries: long.length,
    longRunning: running,
    longQueued: queued,
    otherUserStartSeconds: sameAccount.startSeconds,
    otherUserDoneSeconds: sameAccount.doneSeconds,
    otherAccountStartSeconds: otherAccount.startSeconds,
    otherAccountDoneSeconds: otherAccount.doneSeconds,
  });
} finally {
  bench.close();
}
