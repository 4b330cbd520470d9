import { z } from 'zod';
import { folderPermission } from './journeys';
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
  /**
   * The account to sign in to, by ID: needed only when the e-mail address and password open users of
   * several accounts (e-mail addresses are unique per account); the answer is then 409 naming them.
   */
  accountId: z.number().int().positive().optional(),
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

/** An administrator edits a user: the name, the role (administrator or member), or both. */
export const updateUserRequest = z
  .object({
    name: createUserRequest.shape.name.optional(),
    administrator: z.boolean({ error: '"administrator" must be true or false.' }).optional(),
  })
  .refine((v) => v.name !== undefined || v.administrator !== undefined, {
    message: 'Send "name", "administrator" or both: what should change.',
  });
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

/**
 * Settings of the account. `defaultFolderPermission` is what members have on a folder where neither the
 * folder nor any folder above it grants them anything: every member without a grant, new users included.
 */
export const accountSettings = z.object({ defaultFolderPermission: folderPermission });
export type AccountSettings = z.infer<typeof accountSettings>;
export const accountSettingsResponse = z.object({ settings: accountSettings });

export const apiKeyType = z.enum(['master', 'write-only']);
export type ApiKeyType = z.infer<typeof apiKeyType>;

export const consoleApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  type: apiKeyType,
  /** e.g. `12/••••••••a1b2`: never enough to use the key. */
  masked: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Null: the key never expires. */
  expiresAt: z.string().nullable(),
  expired: z.boolean(),
  /** The user the key acts as. */
  userId: z.number().int(),
  ownerEmail: z.string(),
});
export type ConsoleApiKey = z.infer<typeof consoleApiKey>;
export const apiKeysResponse = z.object({ apiKeys: z.array(consoleApiKey) });

export const API_KEY_NAME_MAX = 100;
export const apiKeyName = z
  .string({ error: 'Give the key a name that says where it is used.' })
  .trim()
  .min(1, 'Give the key a name that says where it is used.')
  .max(API_KEY_NAME_MAX, `Use at most ${API_KEY_NAME_MAX} characters for the name.`);

/** A key expires at most this far ahead; leave the expiry out for a key that never expires. */
export const API_KEY_MAX_LIFETIME_DAYS = 5 * 366;

export const createApiKeyRequest = z.object({
  name: apiKeyName,
  type: apiKeyType,
  /** ISO 8601; null or absent: never expires. The server checks it is in the future. */
  expiresAt: z.iso
    .datetime({ offset: true, error: 'Give the expiry as an ISO 8601 time, e.g. 2027-01-31T00:00:00Z.' })
    .nullable()
    .optional(),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequest>;
/** The only response that ever carries a whole key. */
export const createdApiKeyResponse = z.object({ apiKey: consoleApiKey, key: z.string() });

export const okResponse = z.object({});

/** Changing one's own password signs out every other session of the user (DESIGN §6). */
export const changePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(200),
  newPassword,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
