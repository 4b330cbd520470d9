import { work } from '../src/platform/work';
import { benchApp, expectOk, serveBench } from './common';

/**
 * The server the HTTP benches load: the real app on 127.0.0.1, an ephemeral port and a fresh data
 * directory with one database. Prints its port and keys as one JSON line once its background workers have
 * started (each loads the app, seconds of CPU that would otherwise land in the first phase measured); stops on
 * SIGTERM or when its parent's stdin closes.
 */
const bench = await benchApp();
await expectOk(bench.call('POST', '/v3/database/create/bench'));
// A task every started worker answers: they are all up afterwards.
await work(bench.deps).broadcast('workers.ready', {});
serveBench(bench, (port) => ({ port, masterKey: bench.account.masterKey, writeKey: bench.account.writeOnlyKey }));
