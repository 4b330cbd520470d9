import type { Principal } from './auth';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db';
import type { Logger } from './logger';

/** Everything the app is built from; `createApp(deps)` reads no globals. */
export interface AppDeps {
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
