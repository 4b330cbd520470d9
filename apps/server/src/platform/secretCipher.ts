import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (warehouse passwords, bulk-load credentials, webhook headers): AES-256-GCM under a key
 * derived (HKDF-SHA-256) from the server secret, so the control database alone does not give them away.
 * Stored as `v1:<iv>:<tag>:<ciphertext>` in base64. `purpose` separates the keys of unrelated secrets; its
 * default is the label warehouse secrets were first sealed under, so they still open.
 */

const FIRST_PURPOSE = 'warehouse authentication secrets';

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'svc-dwh', purpose, 32));
}

export function encryptSecret(serverSecret: string, plain: string, purpose = FIRST_PURPOSE): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(serverSecret, purpose), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

export function decryptSecret(serverSecret: string, stored: string, purpose = FIRST_PURPOSE): string {
  const [version, iv, tag, data] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined) {
    throw new Error('A stored secret is damaged; set it again.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(serverSecret, purpose), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('A stored secret cannot be decrypted (was the server secret changed?); set it again.');
  }
}
