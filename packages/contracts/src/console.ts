import { z } from 'zod';
import { newPassword } from './password';

/**
 * Wire shapes of the console's backend-for-frontend routes (`/console-api/*`), authenticated by the
 * session cookie. Every unsafe request carries the header below and, with a body, `application/json`.
 */
export const CONSOLE_HEADER = 'x-svc-console';
export const SESSION_COOKIE = '__Host-svc_session';

export const loginRequest = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(200),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const me = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  administrator: z.boolean(),
  accountId: z.number().int(),
  accountName: z.string(),
});
export type Me = z.infer<typeof me>;
/** A notice for the signed-in user: someone reached the sign-in backoff with their e-mail from an address. */
export const loginNotice = z.object({ at: z.string(), address: z.string(), failures: z.number().int() });
export type LoginNotice = z.infer<typeof loginNotice>;
/** The sign-in answer also carries the notices not shown before (each is shown once). */
export const meResponse = z.object({ user: me, loginNotices: z.array(loginNotice).optional() });

export const consoleUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  administrator: z.boolean(),
  accountOwner: z.boolean(),
  createdAt: z.string(),
  /** Single sign-on: disabled (password only), enabled (password or SSO), enforced (SSO only). */
  ssoMode: z.enum(['disabled', 'enabled', 'enforced']),
  ssoIdentifier: z.string().nullable(),
});
export type ConsoleUser = z.infer<typeof consoleUser>;
export const usersResponse = z.object({ users: z.array(consoleUser) });

export const createUserRequest = z.object({
  name: z.string().trim().min(1, 'Enter a name.').max(100, 'Use at most 100 characters for the name.'),
  email: z.email('Enter a valid e-mail address.').max(254),
  password: newPassword,
  administrator: z.boolean().default(false),
});
export type CreateUserRequest = z.input<typeof createUserRequest>;
export const userResponse = z.object({ user: consoleUser });

export const apiKeyType = z.enum(['master', 'write-only']);
export type ApiKeyType = z.infer<typeof apiKeyType>;

export const consoleApiKey = z.object({
  id: z.number().int(),
  type: apiKeyType,
  /** e.g. `12/••••••••a1b2`: never enough to use the key. */
  masked: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ConsoleApiKey = z.infer<typeof consoleApiKey>;
export const apiKeysResponse = z.object({ apiKeys: z.array(consoleApiKey) });

export const createApiKeyRequest = z.object({ type: apiKeyType });
/** The only response that ever carries a whole key. */
export const createdApiKeyResponse = z.object({ apiKey: consoleApiKey, key: z.string() });

export const okResponse = z.object({});

/** Changing one's own password signs out every other session of the user (DESIGN §6). */
export const changePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(200),
  newPassword,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
