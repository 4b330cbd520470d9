import { describe, expect, it } from 'vitest';
import { changePasswordRequest, createApiKeyRequest, createUserRequest } from './console';
import { passwordProblem } from './password';

describe('console contracts', () => {
  it('rejects a password shorter than eight characters with a message a person can act on', () => {
    const r = createUserRequest.safeParse({ name: 'Ann', email: 'ann@example.com', password: 'short12' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Use at least 8 characters for the password.');
  });

  it('accepts eight characters, as td user:create -R generates, and refuses common passwords in any case', () => {
    const user = (password: string) => ({ name: 'Ann', email: 'ann@example.com', password });
    expect(createUserRequest.safeParse(user('k3Jq9xZp')).success).toBe(true);
    for (const common of ['password1', 'Password123', '12345678', ' qwerty123 ', 'ILOVEYOU']) {
      const r = createUserRequest.safeParse(user(common));
      expect(r.success, common).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/too common/);
    }
    expect(changePasswordRequest.safeParse({ currentPassword: 'x', newPassword: 'iloveyou1' }).success).toBe(false);
    expect(passwordProblem('a'.repeat(201))).toBe('Use at most 200 characters for the password.');
  });

  it('defaults a new user to a non-administrator', () => {
    const r = createUserRequest.parse({ name: 'Ann', email: 'ann@example.com', password: 'long enough pw' });
    expect(r.administrator).toBe(false);
  });

  it('accepts only the two key types', () => {
    expect(createApiKeyRequest.safeParse({ type: 'write-only', name: 'SDK' }).success).toBe(true);
    expect(createApiKeyRequest.safeParse({ type: 'admin', name: 'SDK' }).success).toBe(false);
  });

  it('requires a key name and takes an optional ISO expiry', () => {
    const named = createApiKeyRequest.safeParse({ type: 'master', name: '   ' });
    expect(named.error?.issues[0]?.message).toBe('Give the key a name that says where it is used.');
    expect(createApiKeyRequest.safeParse({ type: 'master' }).success).toBe(false);
    const expiring = { type: 'master', name: 'CI', expiresAt: '2027-01-31T00:00:00Z' };
    expect(createApiKeyRequest.safeParse(expiring).success).toBe(true);
    expect(createApiKeyRequest.safeParse({ ...expiring, expiresAt: 'next year' }).success).toBe(false);
  });
});
