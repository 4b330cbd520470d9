import { decryptSecret, encryptSecret } from '../platform/secretBox';
import { isCredentialKey } from './config';

/**
 * Credentials typed into a session's configuration (`config.in.password`, tokens, keys: every key
 * `isCredentialKey` names, on every level) are stored sealed: AES-256-GCM under the server secret, as
 * `svc-enc:v1:…`. They are opened only to run the session, and never leave the server (reads mask them).
 * A value stored before sealing existed reads as plain text and is sealed by the next update.
 */

const PREFIX = 'svc-enc:';

export const isSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith(PREFIX);

function walk(value: unknown, change: (v: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => walk(v, change));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isCredentialKey(k) && typeof v === 'string' && v !== '' ? change(v) : walk(v, change);
    }
    return out;
  }
  return value;
}

/** The configuration with every credential value sealed (already sealed ones stay as they are). */
export function sealCredentials<T>(serverSecret: string, config: T): T {
  return walk(config, (v) => (isSealed(v) ? v : PREFIX + encryptSecret(serverSecret, v))) as T;
}

/** The configuration with its credentials in plain text, to connect with; never stored or shown. */
export function openCredentials<T>(serverSecret: string, config: T): T {
  return walk(config, (v) => (isSealed(v) ? decryptSecret(serverSecret, v.slice(PREFIX.length)) : v)) as T;
}
