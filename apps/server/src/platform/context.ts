import type { Principal } from './auth';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db';
import type { Logger } from './logger';
import type { Storage } from './storage';

/** Everything the app is built from; `createApp(deps)` reads no globals. */
export interface AppDeps {
  /** The control database behind the async storage layer (SQLite or PostgreSQL). */
  storage: Storage;
  /** The SQLite connection under `storage`, for code not yet moved to it (issue 16; removed when none is left). */
  db: Db;
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
