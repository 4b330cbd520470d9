import { serve } from '@hono/node-server';
import { benchApp, expectOk } from './common';

/**
 * The server the HTTP benches load: the real app on 127.0.0.1, an ephemeral port and a fresh data
 * directory with one database. Prints its port and keys as one JSON line; stops on SIGTERM or when its
 * parent's stdin closes.
 */
const bench = await benchApp();
await expectOk(bench.call('POST', '/v3/database/create/bench'));

const server = serve({ fetch: bench.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(
    `${JSON.stringify({ port: info.port, masterKey: bench.account.masterKey, writeKey: bench.account.writeOnlyKey })}\n`,
  );
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  bench.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
