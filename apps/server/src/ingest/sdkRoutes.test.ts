import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { SDK_NOT_OFFERED } from './sdkRoutes';

/** td-js-sdk's calls besides records, as the SDK sends them (lib/plugins/globalid.js, servercookie.js, personalization.js). */

const ORIGIN = 'https://shop.example';
const GLOBAL_ID_TYPE = 'application/vnd.treasuredata.v1.js+json';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.call('POST', '/v3/database/create/web');
});
afterEach(() => {
  return h.close();
});

const cookieValue = (res: Response, name: string) =>
  /^([^=]+)=([^;]*)/.exec(
    (res.headers.get('set-cookie') ?? '').split(/,(?=\s*\w+=)/).find((c) => c.trim().startsWith(`${name}=`)) ?? '',
  )?.[2];

function expectCors(res: Response) {
  expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect(res.headers.get('access-control-allow-credentials')).toBe('true');
}

const fetchGlobalId = (key: string, cookie?: string) =>
  h.app.request('https://cdp.test/', {
    headers: {
      authorization: `TD1 ${key}`,
      'content-type': GLOBAL_ID_TYPE,
      accept: GLOBAL_ID_TYPE,
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
    },
  });

describe('fetchGlobalID: GET / with a write key', () => {
  it('answers the id of the _td_global cookie, the one td_global_id placeholders get', async () => {
    const preflight = await h.app.request('https://cdp.test/', {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expectCors(preflight);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');

    const first = await fetchGlobalId(h.admin.writeOnlyKey);
    expect(first.status).toBe(200);
    expectCors(first);
    const { global_id } = (await first.json()) as { global_id: string };
    expect(global_id).toMatch(UUID);
    expect(cookieValue(first, '_td_global')).toBe(global_id);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    const again = await fetchGlobalId(h.admin.writeOnlyKey, `_td_global=${global_id}`);
    expect(((await again.json()) as { global_id: string }).global_id).toBe(global_id);

    const record = await h.app.request('https://cdp.test/web/events', {
      method: 'POST',
      headers: {
        authorization: `TD1 ${h.admin.writeOnlyKey}`,
        'content-type': 'application/vnd.treasuredata.v1+json',
        cookie: `_td_global=${global_id}`,
      },
      body: JSON.stringify({ events: [{ td_global_id: 'td_global_id', time: 1_700_000_000 }] }),
    });
    expect(record.status).toBe(200);
    const tail = await (await h.call('GET', '/v3/table/tail/web/events?format=json')).text();
    expect(JSON.parse(tail.trim())).toMatchObject({ td_global_id: global_id });
  });

  it('refuses a bad key with 401 the browser can read; without a key / is not this route', async () => {
    const bad = await fetchGlobalId('1/0000000000000000000000000000000000000000');
    expect(bad.status).toBe(401);
    expectCors(bad);
    const plain = await h.app.request('https://cdp.test/');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    expect(await plain.text()).not.toContain('global_id');
  });
});

describe('fetchServerCookie: GET /get_cookie_id', () => {
  const get = (host: string, cookie?: string) =>
    h.app.request(`https://${host}/get_cookie_id?cookie_domain=shop.example&r=1700000000000`, {
      headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });

  it('answers td_ssc_id, kept by the server in _td_ssc_id on the site’s domain when reached under it', async () => {
    const res = await get('ssc.shop.example');
    expect(res.status).toBe(200);
    expectCors(res);
    const { td_ssc_id } = (await res.json()) as { td_ssc_id: string };
    expect(td_ssc_id).toMatch(UUID);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookieValue(res, '_td_ssc_id')).toBe(td_ssc_id);
    expect(cookie).toMatch(/Domain=shop\.example/i);
    expect(cookie).not.toMatch(/HttpOnly/i);
    const again = await get('ssc.shop.example', `_td_ssc_id=${td_ssc_id}`);
    expect(((await again.json()) as { td_ssc_id: string }).td_ssc_id).toBe(td_ssc_id);
    // Reached under another name, the cookie stays on that host.
    expect((await get('cdp.test')).headers.get('set-cookie')).not.toMatch(/Domain=/i);
  });
});

describe('fetchUserSegments and fetchPersonalization', () => {
  it('answer 422 naming the alternative, readable by the browser', async () => {
    const segments = await h.app.request(
      'https://cdp.test/cdp/lookup/collect/segments?version=2&token=abc&key.td_client_id=1',
      {
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
      },
    );
    expect(segments.status).toBe(422);
    expectCors(segments);
    expect(((await segments.json()) as { message: string }).message).toBe(SDK_NOT_OFFERED.segments);
    const personalization = await h.app.request('https://cdp.test/public/web/events', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/vnd.treasuredata.v1+json', 'wp13n-token': 't' },
      body: '{}',
    });
    expect(personalization.status).toBe(422);
    expectCors(personalization);
    expect(((await personalization.json()) as { message: string }).message).toMatch(
      /not offered by this server: .*POST/,
    );
  });
});
