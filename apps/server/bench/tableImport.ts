import { encodePart } from '@svc/bulk-format';
import { benchApp, expectOk, report, seconds } from './common';

/**
 * Streaming imports as fluent-plugin-td sends them: chunks of msgpack.gz, each with its own unique id,
 * from several senders at once. Timed from the first request to the last answer (each answer comes once
 * its rows are durable); then every chunk is sent again, as a retry would, and must import nothing.
 */

const CHUNKS = Number(process.env.BENCH_IMPORT_CHUNKS ?? 40);
const CHUNK_ROWS = Number(process.env.BENCH_IMPORT_CHUNK_ROWS ?? 8_000);
const SENDERS = 4;

const bench = await benchApp();
try {
  await expectOk(bench.call('POST', '/v3/database/create/bench'));
  await expectOk(bench.call('POST', '/v3/table/create/bench/streamed/log'));
  const chunks: Uint8Array[] = [];
  for (let c = 0; c < CHUNKS; c++) {
    chunks.push(
      await encodePart(
        Array.from({ length: CHUNK_ROWS }, (_, i) => ({
          time: 1700000000 + c * CHUNK_ROWS + i,
          host: `host_${i % 50}`,
          path: `/products/${i % 800}`,
          status: i % 17 === 0 ? 404 : 200,
          ms: (i % 300) * 0.5,
        })),
      ),
    );
  }
  const send = async (from: number) => {
    for (let c = from; c < CHUNKS; c += SENDERS) {
      await expectOk(
        bench.call('PUT', `/v3/table/import_with_id/bench/streamed/chunk${c}/msgpack.gz`, {
          body: chunks[c] as Uint8Array<ArrayBuffer>,
          headers: { 'content-type': 'application/octet-stream' },
        }),
      );
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: SENDERS }, (_, s) => send(s)));
  const importSeconds = seconds(started);
  const retried = process.hrtime.bigint();
  await Promise.all(Array.from({ length: SENDERS }, (_, s) => send(s)));
  const retrySeconds = seconds(retried);
  const shown = await expectOk(bench.call('GET', '/v3/table/show/bench/streamed'));
  const rows = CHUNKS * CHUNK_ROWS;
  if (shown.count !== rows) throw new Error(`The table has ${shown.count} rows, not ${rows}.`);
  process.stderr.write(
    `table import: ${Math.round(rows / importSeconds)} rows/s; a retried chunk answers in ${Math.round((retrySeconds / CHUNKS) * 1000 * SENDERS)} ms\n`,
  );
  report({
    rows,
    chunks: CHUNKS,
    importRowsPerSecond: rows / importSeconds,
    retryMsPerChunk: (retrySeconds / CHUNKS) * 1000 * SENDERS,
  });
} finally {
  bench.close();
}
