import { meResponse, okResponse } from '@svc/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorFromBody, fieldOfError, NETWORK_ERROR_MESSAGE, setUnauthorizedHandler } from './api';

const me = { id: 1, name: 'admin', email: 'a@b.test', administrator: true, accountId: 1, accountName: 'Demo' };

interface Sent {
  url: string;
  init: RequestInit;
}

/** Replaces the browser's fetch (not our code) with one that records the call and answers `response`. */
function answer(response: Response | Error): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  });
  return sent;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
});

describe('errorFromBody', () => {
  it('carries the status and the server message of the error body', () => {
    const err = errorFromBody(429, {
      error: 'Too Many Requests',
      message: 'Too many failed sign-in attempts. Try again in 15 minutes.',
      text: 'Too many failed sign-in attempts. Try again in 15 minutes.',
      severity: 'error',
      status_code: 429,
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(429);
    expect(err.code).toBe('Too Many Requests');
    expect(err.message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  it('falls back to text when message is empty', () => {
    expect(errorFromBody(400, { error: 'Bad Request', message: '', text: 'Name is missing.' }).message).toBe(
      'Name is missing.',
    );
  });

  it('reads a /v1 error like any other: the contract’s one body, details beside the five fields', () => {
    const err = errorFromBody(400, {
      error: 'Bad Request',
      message: 'Give "svc_authentication_id".',
      text: 'Give "svc_authentication_id".',
      severity: 'error',
      status_code: 400,
      details: { field: 'x' },
    });
    expect(err.code).toBe('Bad Request');
    expect(err.message).toBe('Give "svc_authentication_id".');
    expect(err.details).toEqual({ field: 'x' });
  });

  it('writes a readable sentence for a body that is not the error shape', () => {
    expect(errorFromBody(502, '<html>Bad gateway</html>', 'Bad Gateway').message).toBe(
      'The server failed to handle the request (502 Bad Gateway). Try again in a moment.',
    );
    expect(errorFromBody(404, undefined).message).toBe('The request was refused (404).');
  });
});

describe('fieldOfError', () => {
  it('names the first field of the zod issues in the details', () => {
    const err = errorFromBody(400, {
      error: 'Bad Request',
      message: 'email: invalid',
      details: { issues: [{ path: ['email'] }] },
    });
    expect(fieldOfError(err)).toBe('email');
  });

  it('is undefined without issues or for other errors', () => {
    expect(fieldOfError(errorFromBody(409, { error: 'Conflict', message: 'Taken.' }))).toBeUndefined();
    expect(fieldOfError(new Error('x'))).toBeUndefined();
  });
});

describe('the api client', () => {
  it('sends GETs with the cookie and no CSRF header, and validates the answer', async () => {
    const sent = answer(json(200, { user: me }));
    await expect(api.get('/console-api/me', meResponse)).resolves.toEqual({ user: me });
    expect(sent[0]?.init.method).toBe('GET');
    expect(sent[0]?.init.credentials).toBe('same-origin');
    expect(sent[0]?.init.headers).not.toHaveProperty('x-svc-console');
    expect(sent[0]?.init.body).toBeNull();
  });

  it('sends unsafe methods with the console header and a JSON body', async () => {
    const sent = answer(json(200, {}));
    await api.post('/console-api/api-keys', okResponse, { type: 'master' });
    expect(sent[0]?.init.headers).toMatchObject({ 'x-svc-console': '1', 'content-type': 'application/json' });
    expect(sent[0]?.init.body).toBe('{"type":"master"}');

    const deleted = answer(json(200, {}));
    await api.delete('/console-api/api-keys/3', okResponse);
    expect(deleted[0]?.init.method).toBe('DELETE');
    expect(deleted[0]?.init.headers).toMatchObject({ 'x-svc-console': '1' });
  });

  it('reports a 401 to the unauthorized handler, except when the caller opts out', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const body = { error: 'Unauthorized', message: 'Sign in again.', text: 'Sign in again.' };

    answer(json(401, body));
    await expect(api.get('/console-api/api-keys', okResponse)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    answer(json(401, body));
    await expect(api.post('/console-api/login', meResponse, {}, { redirectOn401: false })).rejects.toMatchObject({
      status: 401,
      message: 'Sign in again.',
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('says the server cannot be reached when fetch itself fails', async () => {
    answer(new TypeError('fetch failed'));
    await expect(api.get('/console-api/me', meResponse)).rejects.toMatchObject({
      status: 0,
      message: NETWORK_ERROR_MESSAGE,
    });
  });

  it('refuses an answer that does not match the contract', async () => {
    answer(json(200, { user: { id: 'one' } }));
    const err = await api.get('/console-api/me', meResponse).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/was not understood/);
  });
});
