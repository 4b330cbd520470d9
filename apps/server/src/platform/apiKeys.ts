import type { AppDeps } from './context';
import { hmac, sameBytes } from './secrets';
import type { Executor, Row } from './storage';

/**
 * API keys as authentication reads them (the accounts feature creates, lists and revokes them): the key
 * shape, the stored row, and the constant-time lookup of a live key.
 */

export type KeyType = 'master' | 'write-only';

/** A full key is `<key id>/<40 hex digits>`; only its HMAC is stored. */
export const KEY_SHAPE = /^([1-9][0-9]{0,15})\/([0-9a-f]{40})$/;

/** A row of `api_keys`; `expires_at` is Unix ms (null: never expires), refused by authentication from then on. */
export type KeyRow = Omit<Row<'api_keys'>, 'type'> & { type: KeyType };

/**
 * Finds the unrevoked key a full key string names, comparing the stored HMAC in constant time. Expired keys
 * are found too: authentication refuses them with a message of their own.
 */
export async function findLiveKey(db: Executor, secret: string, fullKey: string): Promise<KeyRow | null> {
  const m = KEY_SHAPE.exec(fullKey);
  if (!m) return null;
  const row = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', Number(m[1]))
    .$narrowType<{ type: KeyType }>()
    .executeTakeFirst();
  const expected = hmac(secret, fullKey);
  if (!row) {
    sameBytes(expected, expected);
    return null;
  }
  if (!sameBytes(row.secret_hash, expected) || row.revoked_at !== null) return null;
  return row;
}

/** How stale `last_used_at` may get: a key in steady use is written once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Records that a key was used; at most once a minute per key on this node (its `deps.services.keys`), so a busy
 * key does not write on every call. Deps without services remember nothing and write every time.
 */
export async function touchKey(deps: AppDeps, id: number, now: number): Promise<void> {
  const seen = deps.services?.keys.touched;
  const last = seen?.get(id);
  if (last !== undefined && now - last < TOUCH_EVERY_MS && now >= last) return;
  seen?.set(id, now);
  await deps.storage.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/**
 * How long this node trusts a key it verified, without reading the key's row and its user's again. A revocation,
 * a removed user or a changed role made on ANOTHER node takes effect here within this time; this node's own
 * changes call `forgetVerifiedKeys` and take effect at once. Keys are checked on every request (the HMAC and two
 * rows), so a busy key would otherwise cost the database and the CPU more than the request itself.
 */
export const VERIFIED_KEY_MS = 5_000;
/** Most keys remembered per node; past it the oldest is forgotten. */
const MAX_VERIFIED_KEYS = 10_000;

interface Verified {
  /** The full key as it was presented and verified: a later request must present exactly it. */
  key: string;
  value: unknown;
  until: number;
}

/** What a node remembers of keys (`deps.services.keys`, built by the composition root). */
export interface KeyMemory {
  byId: Map<number, Verified>;
  /** Bumped by every `forgetVerifiedKeys`: a verification that started before it is not remembered. */
  generation: number;
  /** When each key's `last_used_at` was last written from this node. */
  touched: Map<number, number>;
}

export function keyMemory(): KeyMemory {
  return { byId: new Map(), generation: 0, touched: new Map() };
}

/** Equal texts, compared in time that does not depend on where they differ (both have the key's shape). */
function sameKey(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return diff === 0;
}

/**
 * What `rememberKey` stored for this exact key on this node (the app's services) while it is fresh; else
 * undefined (then verify it and remember). Never answers for a key that was not verified.
 */
export function recallKey<T>(deps: AppDeps, fullKey: string, now: number): T | undefined {
  const m = KEY_SHAPE.exec(fullKey);
  if (!m) return undefined;
  const found = deps.services?.keys.byId.get(Number(m[1]));
  if (!found || now >= found.until || now < found.until - VERIFIED_KEY_MS || !sameKey(found.key, fullKey)) {
    return undefined;
  }
  return found.value as T;
}

/** The generation to pass to `rememberKey`: read it before reading the key's rows. */
export function verifiedGeneration(deps: AppDeps): number {
  return deps.services?.keys.generation ?? 0;
}

/** Remembers a key verified against its rows read after `generation` was taken (see VERIFIED_KEY_MS). */
export function rememberKey(
  deps: AppDeps,
  fullKey: string,
  id: number,
  value: unknown,
  now: number,
  generation: number,
) {
  const v = deps.services?.keys;
  // Something changed keys or users on this node while they were read: what was read may be stale.
  if (!v || v.generation !== generation) return;
  v.byId.delete(id);
  if (v.byId.size >= MAX_VERIFIED_KEYS) v.byId.delete(v.byId.keys().next().value as number);
  v.byId.set(id, { key: fullKey, value, until: now + VERIFIED_KEY_MS });
}

/**
 * Forgets every key this node verified: call it after revoking a key, removing a user or changing what a
 * user may do, so this node honours the change at once (other nodes within VERIFIED_KEY_MS).
 */
export function forgetVerifiedKeys(deps: AppDeps): void {
  const v = deps.services?.keys;
  if (!v) return;
  v.byId.clear();
  v.generation++;
}
