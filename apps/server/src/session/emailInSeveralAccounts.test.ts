import type { meResponse } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { many, sql } from '../platform/storage';
import { consoleCall } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';

/**
 * One e-mail address, users in several accounts (decision 0028): the password decides which account a
 * sign-in opens, at the console and through `/v3/user/authenticate` (td account) alike.
 */
describe('an e-mail address used in several accounts', () => {
  let h: Harness;
  const EMAIL = 'sam@shared.test';
  const accounts: { id: number; key: string }[] = [];
  /** Alpha, Beta and Gamma, in the order made. */
  const three = () => accounts as unknown as [{ id: number }, { id: number }, { id: number }];

  beforeEach(async () => {
    h = await createHarness();
    accounts.length = 0;
    // Sam is a user of three accounts: two with one password, the third with another.
    for (const [name, password] of [
      ['Alpha', 'alpha and omega pw'],
      ['Beta', 'alpha and omega pw'],
      ['Gamma', 'gamma password pw'],
    ] as const) {
      const account = await h.newAccount(name);
      const added = await h.call('POST', '/v3/user/add/sam', {
        key: account.masterKey,
        form: { email: EMAIL, password },
      });
      expect(added.status).toBe(200);
      accounts.push({ id: account.accountId, key: account.masterKey });
    }
  });
  afterEach(() => h.close());

  const login = (json: Record<string, unknown>) => consoleCall(h, 'POST', '/console-api/login', { json });
  const signedInto = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as z.infer<typeof meResponse>).user.accountId;
  };
  const authenticate = (form: Record<string, string>) =>
    h.call('POST', '/v3/user/authenticate', { key: null, form: { user: EMAIL, ...form } });

  it('opens the one account whose user the password proves', async () => {
    const [, , gamma] = three();
    expect(await signedInto(await login({ email: EMAIL, password: 'gamma password pw' }))).toBe(gamma.id);
    expect(await signedInto(await login({ email: 'SAM@shared.test', password: 'gamma password pw' }))).toBe(gamma.id);
  });

  it('asks which account when the password opens several, and opens the one named', async () => {
    const [alpha, beta] = three();
    const several = await login({ email: EMAIL, password: 'alpha and omega pw' });
    expect(several.status).toBe(409);
    const { message } = (await several.json()) as { message: string };
    expect(message).toBe(
      `This e-mail address and password open 2 accounts: "Alpha" (ID ${alpha.id}), "Beta" (ID ${beta.id}). Enter the ID of the account to sign in to.`,
    );
    expect(several.headers.get('set-cookie')).toBeNull();
    expect(await signedInto(await login({ email: EMAIL, password: 'alpha and omega pw', accountId: beta.id }))).toBe(
      beta.id,
    );
    // A named account whose user has another password is a wrong password, like any other.
    expect((await login({ email: EMAIL, password: 'gamma password pw', accountId: alpha.id })).status).toBe(401);
  });

  it('answers a wrong password exactly as an e-mail of no user, and logs it in each account of the address', async () => {
    const wrong = await login({ email: EMAIL, password: 'not the password' });
    const nobody = await login({ email: 'nobody@shared.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect({ status: wrong.status, body: await wrong.text() }).toEqual({
      status: nobody.status,
      body: await nobody.text(),
    });
    const logged = await many<{ account_id: number }>(
      h.deps.storage.db,
      sql`SELECT account_id FROM audit_events WHERE action = 'user.sign_in' AND reason = 'wrong_password'
           ORDER BY account_id`,
    );
    expect(logged.map((r) => Number(r.account_id))).toEqual(accounts.map((a) => a.id));
  });

  it('gives td account (/v3/user/authenticate) a key of the account the password opens', async () => {
    const [alpha, , gamma] = three();
    const accountOfKey = async (res: Response) => {
      expect(res.status).toBe(200);
      const { apikey } = (await res.json()) as { apikey: string };
      const shown = await h.call('GET', '/v3/user/apikey/validate', { key: apikey });
      return ((await shown.json()) as { account_id: number }).account_id;
    };
    expect(await accountOfKey(await authenticate({ password: 'gamma password pw' }))).toBe(gamma.id);
    expect((await authenticate({ password: 'alpha and omega pw' })).status).toBe(409);
    expect(await accountOfKey(await authenticate({ password: 'alpha and omega pw', account: String(alpha.id) }))).toBe(
      alpha.id,
    );
  });
});
