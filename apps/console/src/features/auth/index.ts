export { authKeys, meQueryOptions } from './api';
export { LoginPage } from './LoginPage';
export { LOGIN_PATH, loginUrlFor } from './nextPath';
export { useSignOut } from './useSignOut';
