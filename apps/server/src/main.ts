import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { firstStartBanner } from './accounts/firstStartBanner';
import { seedFirstAccount } from './accounts/seed';
import { createApp } from './app';
import { convertSqliteData, duckThreadPoolShortfall, onDuck } from './data';
import { demoEnabled, seedDemo } from './demo';
import { jobOptionsFromEnv } from './jobs/service';
import { systemClock } from './platform/clock';
import { journeyEngineOptions, loadConfig, scheduleOptions } from './platform/config';
import { FILE_MODE, makeDir, restrictDataTree, restrictNewFiles } from './platform/fileModes';
import { createLogger } from './platform/logger';
import { checkSecret } from './platform/secretCheck';
import { randomHex } from './platform/secrets';
import { type OpenedStorage, openStorage, storageTarget } from './platform/storage';

const here = dirname(fileURLToPath(import.meta.url));
const builtConsole = resolve(here, '../../console/dist');

const config = loadConfig(process.env, { consoleDir: existsSync(builtConsole) ? builtConsole : null });
// Everything under the data folder is for this service's user only (platform/fileModes.ts): new files by
// the umask and the modes each writer passes, existing ones (an older version's) brought to the rule here.
restrictNewFiles();
makeDir(config.dataDir);
restrictDataTree(config.dataDir);

// Without SVC_SECRET, a random secret is made once and kept beside the data (mode 600), so keys and
// sessions stay valid across restarts.
if (!config.secret) {
  const secretFile = join(config.dataDir, 'secret');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomHex(32), { mode: FILE_MODE });
  config.secret = readFileSync(secretFile, 'utf8').trim();
}

const logger = createLogger();
let storage: OpenedStorage;
try {
  storage = await openStorage(storageTarget(process.env, config.dataDir));
  await checkSecret(storage, config.secret);
} catch (err) {
  // PostgreSQL down or refusing the credentials, or another secret than the data's: one line without the
  // password, and a non-zero exit.
  logger.error('the server cannot start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}
logger.info('storage', { backend: storage.backend, at: storage.describe });
const deps = { storage, config, clock: systemClock, logger };

// The job limits are read once; a bad value stops the start with its name.
let jobs: ReturnType<typeof jobOptionsFromEnv>;
try {
  jobs = jobOptionsFromEnv(process.env);
} catch (err) {
  logger.error('the server cannot start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

// A data folder of the SQLite data plane is converted to DuckDB once, before anything opens the plane
// (decision 0031): a line per database; a failure leaves the old files as they were and stops the start.
if (onDuck(deps)) {
  const shortfall = duckThreadPoolShortfall(process.env, jobs);
  if (shortfall) {
    logger.error('the server cannot start', { error: shortfall });
    process.exit(1);
  }
  try {
    await convertSqliteData(config.dataDir, logger);
  } catch (err) {
    logger.error('the server cannot start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
}

const seeded = await seedFirstAccount(deps);
if (!config.publicUrl) {
  logger.warn(
    'SVC_PUBLIC_URL is not set: the SAML entity ID, the ACS and links in messages follow the Host header of each request. Set it to the address users reach this service at.',
  );
}
const app = createApp(deps, {
  journeyEngine: journeyEngineOptions(process.env),
  jobs,
  bulkLoads: scheduleOptions(process.env),
  schedules: { intervalMs: scheduleOptions(process.env).tickMs ?? 15_000 },
  workers: { prewarm: true },
});
await app.ready;

// The first start fills the new account with a living demo (SVC_DEMO=0 leaves it empty).
let demoNote = '';
if (seeded && demoEnabled(process.env)) {
  const started = Date.now();
  logger.info('preparing the demo data');
  try {
    const demo = await seedDemo(app, deps, {
      accountId: seeded.accountId,
      authorization: `SVC1 ${seeded.masterKey}`,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    logger.info('demo data ready', { rows: demo.rows, seconds });
    demoNote = `  Demo data          ${demo.rows} sample rows, a parent segment, 3 segments, a launched journey (${seconds} s)`;
  } catch (err) {
    // The service is still whole without its demo: say so and serve.
    logger.warn('the demo data could not be created', { error: err instanceof Error ? err.message : String(err) });
  }
}

const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
  const url = `http://localhost:${info.port}`;
  if (seeded) {
    // Printed once, on the first start only: nothing here is stored in clear anywhere.
    process.stdout.write(firstStartBanner(seeded, config.seed, url, demoNote));
  }
  logger.info('listening', { url, dataDir: config.dataDir, console: config.consoleDir !== null });
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info('shutting down', { signal });
  // Query processes end now; jobs they were running end as error at the next start.
  const stopped = app.stop();
  server.close(() => {
    void stopped.finally(() => storage.close().finally(() => process.exit(0)));
  });
  // Idle keep-alive connections would hold close() open; end them after a grace period.
  setTimeout(() => {
    void storage.close().finally(() => process.exit(0));
  }, 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
