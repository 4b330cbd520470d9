/** Invitations and password resets (decision 0044): the Users page's panel and modals, and the public pages. */
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { InvitationsPanel } from './InvitationsPanel';
export { InviteModal } from './InviteModal';
export { JoinPage } from './JoinPage';
export { ResetLinkModal } from './ResetLinkModal';
export { ResetPasswordPage } from './ResetPasswordPage';
