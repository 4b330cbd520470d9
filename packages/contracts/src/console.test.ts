import { describe, expect, it } from 'vitest';
import { createApiKeyRequest, createUserRequest } from './console';

describe('console contracts', () => {
  it('rejects a password shorter than ten characters with a message a person can act on', () => {
    const r = createUserRequest.safeParse({ name: 'Ann', email: 'ann@example.com', password: 'short' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Use at least 10 characters for the password.');
  });

  it('defaults a new user to a non-administrator', () => {
    const r = createUserRequest.parse({ name: 'Ann', email: 'ann@example.com', password: 'long enough pw' });
    expect(r.administrator).toBe(false);
  });

  it('accepts only the two key types', () => {
    expect(createApiKeyRequest.safeParse({ type: 'write-only' }).success).toBe(true);
    expect(createApiKeyRequest.safeParse({ type: 'admin' }).success).toBe(false);
  });
});
