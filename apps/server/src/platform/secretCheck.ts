import { hmac } from './secrets';
import type { Storage } from './storage';

/**
 * Every node, and every restart, must run with the secret the data was set up with: API keys and session ids
 * are stored as HMACs under it and warehouse passwords are encrypted with it, so a node with another secret
 * would refuse every key and session the others accept. The first start records a fingerprint of the secret
 * (an HMAC, which does not reveal it); later starts compare theirs and stop, saying why, when it differs.
 */
const FINGERPRINT = 'secret_fingerprint';

export class SecretMismatch extends Error {
  override name = 'SecretMismatch';
}

export async function checkSecret(storage: Storage, secret: string): Promise<void> {
  const mine = hmac(secret, 'svc: the secret this data was set up with').toString('hex');
  await storage.db
    .insertInto('service_settings')
    .values({ name: FINGERPRINT, value: mine })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const kept = await storage.db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', FINGERPRINT)
    .executeTakeFirst();
  if (kept?.value !== mine) {
    throw new SecretMismatch(
      `The server secret differs from the one this data was set up with (${storage.describe}): keys, sessions and warehouse passwords would not work. Give every node, and every restart, the same SVC_SECRET (or keep <data dir>/secret).`,
    );
  }
}
