/** Input limits of the service, in one place so docs and tests can name them. */
export const limits = {
  /** Any JSON, form or multipart body of an ordinary route. */
  bodyBytes: 1024 * 1024,
  /** Names of databases and tables (DESIGN §6). */
  namePattern: /^[a-z0-9_]{3,255}$/,
  namePatternText: 'lowercase letters, digits and underscores, 3 to 255 characters',
  emailMaxLength: 254,
  passwordMinLength: 10,
  passwordMaxLength: 200,
  /** Failed logins allowed per e-mail and client address before a pause. */
  loginAttempts: 5,
  loginWindowMs: 15 * 60 * 1000,
} as const;
