/** Input limits of the service, in one place so docs and tests can name them. */
export const limits = {
  /** Any JSON, form or multipart body of an ordinary route. */
  bodyBytes: 1024 * 1024,
  /** Names of databases and tables (DESIGN §6). */
  namePattern: /^[a-z0-9_]{3,255}$/,
  namePatternText: 'lowercase letters, digits and underscores, 3 to 255 characters',
  emailMaxLength: 254,
  /** Failed sign-ins allowed per (e-mail, client address) before a backoff that doubles each time. */
  loginAttempts: 5,
  loginBackoffBaseMs: 60 * 1000,
  loginBackoffMaxMs: 60 * 60 * 1000,
  /** How long a pair's failures count towards its backoff. */
  loginPairWindowMs: 24 * 60 * 60 * 1000,
  /** Failed sign-ins allowed per client address, on any e-mails, within `loginWindowMs`. */
  loginAddressAttempts: 30,
  loginWindowMs: 15 * 60 * 1000,
} as const;
