import { CONSOLE_HEADER } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { firstInvalidUtf8 } from './utf8';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('firstInvalidUtf8', () => {
  it('finds the first byte of the first invalid sequence, or -1', () => {
    expect(firstInvalidUtf8(bytes('{"a":"é€😀"}'))).toBe(-1);
    expect(firstInvalidUtf8(bytes('ab', [0xff], 'c'))).toBe(2);
    expect(firstInvalidUtf8(bytes('é', [0x80]))).toBe(2); // a stray continuation byte
    expect(firstInvalidUtf8(bytes('x', [0xe9], 'x'))).toBe(1); // Latin-1 é
    expect(firstInvalidUtf8(bytes([0xc0, 0xaf]))).toBe(0); // overlong
    expect(firstInvalidUtf8(bytes('a', [0xe0, 0x80, 0xaf]))).toBe(1); // overlong, three bytes
    expect(firstInvalidUtf8(bytes([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
    expect(firstInvalidUtf8(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // past U+10FFFF
    expect(firstInvalidUtf8(bytes('abc', [0xe2, 0x82]))).toBe(3); // cut short
  });
});

describe('request bodies that are not UTF-8', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web');
  });
  afterEach(() => h.close());

  /** `{"name":"René"}` in Latin-1: the byte 0xE9 at offset 12. */
  const body = bytes('{"name":"Ren', [0xe9], '"}');

  const expectRefused = async (res: Response, where: string, offset = 12) => {
    expect(res.status, where).toBe(400);
    const answer = (await res.json()) as { message: string; status_code: number };
    expect(answer.status_code, where).toBe(400);
    expect(answer.message, where).toContain(`offset ${offset} (0xE9)`);
  };
  const json = { 'content-type': 'application/json' };
  const withKey = (key = h.admin.masterKey) => ({ ...json, authorization: `SVC1 ${key}` });
  const post = (path: string, headers: Record<string, string>, payload: Uint8Array = body) =>
    h.app.request(path, { method: 'POST', headers, body: payload });
  const tables = async () =>
    ((await (await h.call('GET', '/v3/table/list/web')).json()) as { tables: unknown[] }).tables;

  it('refuses it with a 400 naming the offset on every JSON route family, storing nothing', async () => {
    // Valid but for one byte: without the check the user would be added with U+FFFD in the password.
    const user = bytes('{"email":"rene@example.test","password":"correct horse Ren', [0xe9], '"}');
    await expectRefused(await post('/v3/user/add/rene', withKey(), user), '/v3', 58);
    expect(((await (await h.call('GET', '/v3/user/list')).json()) as { users: unknown[] }).users).toHaveLength(1);
    await expectRefused(await post('/v1/authentications', withKey()), '/v1');
    const cookie = await signIn(h);
    await expectRefused(await post('/console-api/users', { ...json, cookie, [CONSOLE_HEADER]: '1' }), '/console-api');
    await expectRefused(await post('/entities/folders', withKey()), '/entities');
    await expectRefused(await post('/audiences', withKey()), '/audiences');
    const writeKey = { ...json, 'x-svc-write-key': h.admin.writeOnlyKey };
    await expectRefused(await post('/postback/v3/event/web/clicks', writeKey), '/postback');
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'x-svc-write-key': h.admin.writeOnlyKey };
    await expectRefused(
      await post('/postback/v3/event/web/clicks', form, bytes('name=Ren', [0xe9], '&x=1')),
      '/postback, a form',
      8,
    );
    await expectRefused(await post('/web/clicks', withKey(h.admin.writeOnlyKey)), 'records API');
    expect(await tables()).toEqual([]);
  });

  it('refuses a body sent without a content type too, and takes valid UTF-8 as before', async () => {
    const { authorization } = withKey();
    await expectRefused(await post('/v3/user/add/rene', { authorization }), '/v3 without a content type');
    const fine = await post(
      '/postback/v3/event/web/clicks',
      {
        ...json,
        'x-svc-write-key': h.admin.writeOnlyKey,
      },
      bytes('{"name":"René 😀"}'),
    );
    expect(fine.status).toBe(200);
    expect(await tables()).toHaveLength(1);
  });
});
