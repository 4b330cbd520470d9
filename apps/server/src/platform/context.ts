import type { KeyMemory } from './apiKeys';
import type { Principal } from './auth';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import type { Storage } from './storage';
import type { BackgroundWork } from './work';

/** Everything the app is built from; `createApp(deps)` reads no globals. */
export interface AppDeps {
  /** The control database behind the async storage layer (SQLite or PostgreSQL). */
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
  /**
   * The services of the app these deps belong to, built once by the composition root (compose.ts) when the app
   * (or a worker thread) is made. Absent on deps that no app was built from (a test's bare storage).
   */
  services?: Services;
}

/**
 * The services of one app, each built once by the composition root (compose.ts, decision 0051) and found here
 * by the code that uses it. This layer declares its own; each feature adds its entries by declaration merging
 * beside the code that uses them, so platform/ names no feature while compose.ts must build every entry.
 */
export interface Services {
  /** The background worker pool; null inside a worker thread, where the task itself is the owner. */
  work: BackgroundWork | null;
  /** Start-up work (recovery after a crash) the app's `ready` waits for. */
  startup: Promise<unknown>[];
  /** Recent bad API keys per client address (platform/keyThrottle.ts). */
  badKeys: Map<string, number[]>;
  /** API keys this node verified lately, and when it last stamped each key's use (platform/apiKeys.ts). */
  keys: KeyMemory;
  /** Outgoing e-mail through the operator's SMTP server (`config.smtp`); null without one. */
  mail: Mailer | null;
}

export interface AppEnv {
  Variables: {
    principal: Principal | null;
    requestId: string;
  };
}
