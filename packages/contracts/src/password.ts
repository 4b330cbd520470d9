import { z } from 'zod';

/**
 * The one password rule (NIST SP 800-63B): at least 8 characters, at most 200, and not a commonly used
 * password. No composition rules. Every place that sets a password (console, `/v3/user/add`, password
 * change, the first administrator) uses it, and the console shows the same messages.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, and not a commonly used password.`;

/**
 * Passwords of at least 8 characters that top the public breach-frequency lists, lowercase. Compared
 * case-insensitively and after trimming, so `Password1` and ` qwerty123 ` are refused too.
 */
const COMMON = new Set(
  `
  password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa55word pa55w0rd
  12345678 123456789 1234567890 0123456789 12341234 123123123 1231234 11111111 111111111 1111111111
  00000000 000000000 22222222 55555555 66666666 88888888 99999999 87654321 987654321 11223344 12121212
  123qweasd 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qazxsw2 zaq12wsx zaq1zaq1 qazwsxedc qwertyui qwertyuiop
  qwerty12 qwerty123 qwerty1234 qweasdzxc asdfghjk asdfghjkl asdf1234 zxcvbnm1 zxcvbnm123 abc12345
  abcd1234 abcdefgh abcdefg1 a1b2c3d4 aa123456 iloveyou iloveyou1 iloveyou2 sunshine sunshine1
  princess princess1 football football1 baseball basketball superman batman12 starwars whatever
  computer internet letmein1 letmeinplease trustno1 welcome1 welcome123 welcome12 changeme changeme1
  administrator admin123 admin1234 adminadmin rootroot root1234 master12 masterkey michael1 jennifer
  jordan23 liverpool chelsea1 arsenal1 dragon12 monkey12 monkey123 shadow12 freedom1 whatever1
  secret12 secret123 mypassword mypassword1 test1234 testtest testing1 default1 guest123 user1234
  qwer1234 1234qwer 1234abcd 1234asdf q1w2e3r4 q1w2e3r4t5 blink182 minecraft pokemon1 naruto12
  summer2024 summer2025 winter2024 winter2025 spring2025 autumn2025 spring2026 summer2026 winter2026
  correcthorsebatterystaple
  `
    .trim()
    .split(/\s+/),
);

/** Why a password cannot be used, as a sentence for the person choosing it; null when it is fine. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Use at least ${PASSWORD_MIN_LENGTH} characters for the password.`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Use at most ${PASSWORD_MAX_LENGTH} characters for the password.`;
  }
  if (COMMON.has(password.trim().toLowerCase())) {
    return 'This password is too common and easy to guess: choose another one, for example a few unrelated words.';
  }
  return null;
}

/** A new password as every request body takes it. */
export const newPassword = z.string().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
