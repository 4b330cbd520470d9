import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (warehouse passwords, credentials in bulk load configurations): AES-256-GCM under a key
 * derived (HKDF-SHA-256) from the server secret, so the control database alone does not give them away.
 * Stored as `v1:<iv>:<tag>:<ciphertext>` in base64. The derivation's labels name the warehouse feature that
 * first used them; they stay, or stored secrets could no longer be opened.
 */

function keyFor(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'svc-dwh', 'warehouse authentication secrets', 32));
}

export function encryptSecret(serverSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(serverSecret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

export function decryptSecret(serverSecret: string, stored: string): string {
  const [version, iv, tag, data] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined) {
    throw new Error('A stored warehouse secret is damaged; set the authentication password again.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(serverSecret), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      'A stored warehouse secret cannot be decrypted (was the server secret changed?); set the authentication password again.',
    );
  }
}
