import type { ConsoleUser } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';

/**
 * The lock-out guard holds when two administrators act at the same instant: each demoting or removing the
 * other must leave one of them an administrator (one request 200, the other 409), on both backends.
 */
describe('the lock-out guard under concurrent changes', () => {
  let h: Harness;
  const PASSWORD = 'long enough pw';
  const call = (method: string, path: string, cookie: string, json?: unknown) =>
    consoleCall(h, method, path, { cookie, ...(json === undefined ? {} : { json }) });
  const admins = async () =>
    (
      await many<{ email: string }>(
        h.deps.storage.db,
        sql`SELECT email FROM users WHERE account_id = ${h.admin.accountId} AND administrator = 1 ORDER BY id`,
      )
    ).map((r) => r.email);

  /** The session of an administrator: the owner's at first, then each round's survivor's. */
  let lead: string;
  beforeEach(async () => {
    h = await createHarness();
    lead = await signIn(h);
  });
  afterEach(() => h.close());

  /** Two new administrators, ann and bob, signed in, made the only ones (the others become members). */
  async function twoAdmins(round: number) {
    const added: ConsoleUser[] = [];
    for (const name of [`ann${round}`, `bob${round}`]) {
      const res = await call('POST', '/console-api/users', lead, {
        name,
        email: `${name}@first.test`,
        password: PASSWORD,
        administrator: true,
      });
      expect(res.status).toBe(200);
      added.push(((await res.json()) as { user: ConsoleUser }).user);
    }
    const [ann, bob] = added as [ConsoleUser, ConsoleUser];
    const annCookie = await signIn(h, ann.email, PASSWORD);
    const bobCookie = await signIn(h, bob.email, PASSWORD);
    for (const email of await admins()) {
      if (email === ann.email || email === bob.email) continue;
      const [other] = await many<{ id: number }>(
        h.deps.storage.db,
        sql`SELECT id FROM users WHERE account_id = ${h.admin.accountId} AND email = ${email}`,
      );
      const res = await call('PATCH', `/console-api/users/${other?.id}`, annCookie, { administrator: false });
      expect(res.status).toBe(200);
    }
    expect(await admins()).toEqual([ann.email, bob.email]);
    return { ann, bob, annCookie, bobCookie };
  }

  it('leaves one administrator when two demote each other at once', async () => {
    for (let round = 0; round < 4; round++) {
      const { ann, bob, annCookie, bobCookie } = await twoAdmins(round);

      const answers = await Promise.all([
        call('PATCH', `/console-api/users/${bob.id}`, annCookie, { administrator: false }),
        call('PATCH', `/console-api/users/${ann.id}`, bobCookie, { administrator: false }),
      ]);
      // One demotion wins. The other is refused by the guard (409, naming the rule), or, when the winner
      // demoted its author first, by the author's session, which a privilege change ends (401).
      const [first, second] = answers.map((a) => a.status).sort();
      expect(first).toBe(200);
      expect([401, 409]).toContain(second);
      const refused = answers.find((a) => a.status === 409);
      if (refused) expect(((await refused.json()) as { message: string }).message).toContain('leave no administrator');
      expect(await admins()).toHaveLength(1);
      lead = answers[0]?.status === 200 ? annCookie : bobCookie;
    }
  });

  it('leaves one administrator when one removes the other while being demoted', async () => {
    for (let round = 0; round < 4; round++) {
      const { ann, bob, annCookie, bobCookie } = await twoAdmins(round);
      const answers = await Promise.all([
        call('DELETE', `/console-api/users/${bob.id}`, annCookie),
        call('PATCH', `/console-api/users/${ann.id}`, bobCookie, { administrator: false }),
      ]);
      // One change wins. The other is refused by the guard (409), or, when the winner already removed or
      // demoted its author, by the author's ended session or lost rights (401, 403): never a second 200.
      const [first, second] = answers.map((a) => a.status).sort();
      expect(first).toBe(200);
      expect([401, 403, 409]).toContain(second);
      expect(await admins()).toHaveLength(1);
      lead = answers[0]?.status === 200 ? annCookie : bobCookie;
    }
  });
});
