/**
 * What other features use of accounts: users and their lookups, API keys, the account's settings, the guard
 * that keeps an administrator on the account, the first account's seed, and the OpenAPI pieces routes share.
 */
export { addKey } from './apiKeys';
export { lockAccountRow, userColumnOf, userIdsNamed } from './columns';
export { errorResponses, idParam, jsonBody, restSecurity, wireBody } from './openapi';
export { createAccountWithAdmin, type NewAccount } from './seed';
export { defaultFolderPermission } from './settings';
export { assertAdminsRemain, lockedUser } from './signInGuard';
export {
  accountExists,
  insertSsoUser,
  setSsoMode,
  ssoEnforcedEmails,
  userByEmail,
  userBySsoIdentifier,
  userNameTaken,
} from './ssoUsers';
export {
  addInvitedUser,
  changeEmail,
  emailTaken,
  findAccount,
  findUsersForLogin,
  getUser,
  getUserByRef,
  listUsers,
  setPassword,
  type UserRow,
} from './users';
export { toMe, toV3User, v3User } from './wire';
