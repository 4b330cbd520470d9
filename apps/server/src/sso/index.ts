/** What other features use of SSO: whether an account has an SSO setting (invitations offer joining with it). */
export { findSetting } from './settings';
