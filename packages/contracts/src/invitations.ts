import { z } from 'zod';
import { me } from './console';
import { newPassword } from './password';

/**
 * Invitations and password resets (decision 0044): one-time links that expire. The token travels only in
 * the link's fragment and in request bodies, never in a URL the server sees.
 */

/** A link's token as the console reads it from the fragment: 43 base64url characters. */
const linkToken = z
  .string({ error: 'Send the token of the link as "token".' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'This is not the token of an invitation or reset link. Copy the whole link.');

export const invitationState = z.enum(['pending', 'expired']);
export const invitation = z.object({
  id: z.number().int(),
  email: z.string(),
  administrator: z.boolean(),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  state: invitationState,
  /** When the invitation was e-mailed; null when only the link was shown. */
  emailedAt: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitation>;
export const invitationsResponse = z.object({ invitations: z.array(invitation) });

export const createInvitationRequest = z.object({
  email: z.email('Enter a valid e-mail address.').max(254, 'Use at most 254 characters for the address.'),
  administrator: z.boolean({ error: '"administrator" must be true or false.' }).default(false),
});
export type CreateInvitationRequest = z.input<typeof createInvitationRequest>;

/** What a new link answers: the link to copy, and whether it was e-mailed (or why not). */
export const sentLink = z.object({
  link: z.string(),
  expiresAt: z.string(),
  emailed: z.boolean(),
  /** Why the e-mail was not sent, when SMTP is configured but the server refused it. */
  emailProblem: z.string().optional(),
});
export type SentLink = z.infer<typeof sentLink>;
export const createdInvitationResponse = sentLink.extend({ invitation });
export type CreatedInvitation = z.infer<typeof createdInvitationResponse>;

export const linkRequest = z.object({ token: linkToken });
/** What a link is for, shown before the invitee or the user acts on it. */
export const linkInfoResponse = z.object({
  kind: z.enum(['invitation', 'password_reset']),
  email: z.string(),
  accountName: z.string(),
  expiresAt: z.string(),
  /** Invitations: the account signs in with SSO, so the invitee may join with it. */
  ssoAvailable: z.boolean(),
});
export type LinkInfo = z.infer<typeof linkInfoResponse>;

const personName = z.string().trim().min(1, 'Enter your name.').max(100, 'Use at most 100 characters for the name.');
/** The invitee's name, and a password, or `sso: true` to join with the account's single sign-on. */
export const acceptInvitationRequest = z
  .object({
    token: linkToken,
    name: personName,
    password: newPassword.optional(),
    sso: z.literal(true, { error: '"sso" can only be true.' }).optional(),
  })
  .refine((v) => (v.password === undefined) !== (v.sso === undefined), {
    message: 'Choose a password, or join with single sign-on ("sso": true): one of the two.',
  });
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequest>;
/** Joined: signed in with the password, or the SSO start to go to. */
export const acceptInvitationResponse = z.object({ user: me.optional(), ssoUrl: z.string().optional() });

export const passwordResetRequest = z.object({
  email: z.string().trim().min(3, 'Enter your e-mail address.').max(254, 'Use at most 254 characters.'),
});
/** Whether resets are mailed at all (the server has SMTP); the same for every address. */
export const passwordResetAvailability = z.object({ emailAvailable: z.boolean() });
export const completePasswordResetRequest = z.object({ token: linkToken, password: newPassword });
