import { benchApp, expectOk, serveBench } from './common';

/**
 * The server the HTTP benches load: the real app on 127.0.0.1, an ephemeral port and a fresh data
 * directory with one database. Prints its port and keys as one JSON line; stops on SIGTERM or when its
 * parent's stdin closes.
 */
const bench = await benchApp();
await expectOk(bench.call('POST', '/v3/database/create/bench'));
serveBench(bench, (port) => ({ port, masterKey: bench.account.masterKey, writeKey: bench.account.writeOnlyKey }));
