import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { isRetryable, withRetries } from './upload';

const failing = (statuses: number[]) => {
  let calls = 0;
  const attempt = async () => {
    const status = statuses[calls++];
    if (status === undefined) return 'sent';
    throw new ApiError(status, `status ${status}`, 'x');
  };
  return { attempt, calls: () => calls };
};

describe('isRetryable', () => {
  it('retries the network, server errors, timeouts and throttling, not refusals of the part', () => {
    for (const s of [0, 408, 429, 500, 502, 503]) expect(isRetryable(new ApiError(s, '', ''))).toBe(true);
    for (const s of [400, 401, 404, 409, 413, 422]) expect(isRetryable(new ApiError(s, '', ''))).toBe(false);
    expect(isRetryable(new DOMException('cancelled', 'AbortError'))).toBe(false);
    expect(isRetryable(new Error('boom'))).toBe(false);
  });
});

describe('withRetries', () => {
  it('tries again after each delay and succeeds when a later attempt goes through', async () => {
    const f = failing([503, 0]);
    const heard: number[] = [];
    const result = await withRetries(f.attempt, new AbortController().signal, (n) => heard.push(n), [0, 0]);
    expect(result).toBe('sent');
    expect(f.calls()).toBe(3);
    expect(heard).toEqual([2, 3]);
  });

  it('gives up after the last delay with the last failure', async () => {
    const f = failing([503, 503, 502, 500]);
    await expect(withRetries(f.attempt, new AbortController().signal, () => {}, [0, 0])).rejects.toThrow('status 502');
    expect(f.calls()).toBe(3);
  });

  it('does not retry a refusal of the part', async () => {
    const f = failing([413]);
    await expect(withRetries(f.attempt, new AbortController().signal, () => {}, [0, 0])).rejects.toThrow('status 413');
    expect(f.calls()).toBe(1);
  });

  it('stops waiting when the upload is cancelled', async () => {
    const f = failing([503, 503]);
    const controller = new AbortController();
    const run = withRetries(f.attempt, controller.signal, () => controller.abort(), [60_000]);
    await expect(run).rejects.toThrow('cancelled');
    expect(f.calls()).toBe(1);
  });
});
