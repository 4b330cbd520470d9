import type { Principal } from './auth';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Storage } from './storage';

/** Everything the app is built from; `createApp(deps)` reads no globals. */
export interface AppDeps {
  /** The control database behind the async storage layer (SQLite or PostgreSQL). */
  storage: Storage;
  config: Config;
  clock: Clock;
  logger: Logger;
}

export interface AppEnv {
  Variables: {
    principal: Principal | null;
    requestId: string;
  };
}
