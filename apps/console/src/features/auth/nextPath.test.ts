import { describe, expect, it } from 'vitest';
import { loginUrlFor, safeNextPath } from './nextPath';

describe('loginUrlFor', () => {
  it('remembers the page the user wanted', () => {
    expect(loginUrlFor('/settings/users?x=1')).toBe('/login?next=%2Fsettings%2Fusers%3Fx%3D1');
  });

  it('does not remember the home page or the login page itself', () => {
    expect(loginUrlFor('/')).toBe('/login');
    expect(loginUrlFor('/login?next=%2Fa')).toBe('/login');
  });
});

describe('safeNextPath', () => {
  it('follows a path of the console', () => {
    expect(safeNextPath('/settings/users')).toBe('/settings/users');
    expect(safeNextPath('/login-history')).toBe('/login-history');
  });

  it('goes home for nothing, other sites or the login page', () => {
    for (const next of [
      null,
      '',
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      'javascript:alert(1)',
      '/login',
    ]) {
      expect(safeNextPath(next)).toBe('/');
    }
  });
});
