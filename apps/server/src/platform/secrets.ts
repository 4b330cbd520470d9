import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA-256 of a value under the server secret: how keys and session ids are stored. */
export function hmac(secret: string, value: string): Buffer {
  return createHmac('sha256', secret).update(value).digest();
}

export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A password people can read off a terminal and type: 4 groups of 5 letters and digits. */
export function randomPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(20);
  let s = '';
  for (let i = 0; i < 20; i++) {
    if (i > 0 && i % 5 === 0) s += '-';
    s += alphabet[(bytes[i] ?? 0) % alphabet.length];
  }
  return s;
}

// scrypt is memory-hard and built into Node: N=2^15, r=8 uses 32 MiB per hash.
let N = 1 << 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * For the test suite only (its setup file calls it): new hashes use N=2^10, so the thousands of sign-ins
 * and accounts the tests make do not spend most of their time hashing. A check still reads N from the
 * stored hash, so hashes made either way verify.
 */
export function cheapPasswordHashesForTests(): void {
  N = 1 << 10;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (parts?.length !== 6 || parts[0] !== 'scrypt') {
    // Spend the same time as a real check so a missing user is not told apart by timing.
    await scryptAsync(password, Buffer.alloc(16), N, R, P);
    return false;
  }
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return sameBytes(actual, expected);
}
