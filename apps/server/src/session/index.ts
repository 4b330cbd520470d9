/** Console sessions as other features use them (SSO signs people in and out): create, find, revoke, the cookie. */

export { clientAddress, forgiveLoginAttempts } from './loginLimiter';
export { changePassword, throttleResetRequest } from './passwords';
export {
  createSession,
  findLiveSession,
  readSessionCookie,
  revokeAccountSsoSessions,
  revokeSession,
  revokeUserSessionsByMethod,
  setSessionCookie,
} from './sessions';
