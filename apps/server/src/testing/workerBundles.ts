import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * Vitest global setup: the worker thread's code, bundled once per test run.
 * Every test app starts its own workers, and one that loads a few hundred TypeScript modules through tsx
 * costs most of a second; a bundle loads in a fraction of that. The entry (workers/entry.mjs) loads the bundle
 * when `SVC_TEST_WORKER_BUNDLES` names its folder; the server's own start, and the tests that start it as a
 * process, keep loading the sources through tsx.
 */

const server = resolve(import.meta.dirname, '../..');

/** npm packages stay imports (native modules among them); our sources and workspace packages are bundled. */
const sourcesOnly: Plugin = {
  name: 'sources-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@svc/') ? undefined : { path: args.path, external: true },
    );
    // Each module keeps its own URL, so paths it resolves from import.meta.url stay those of its source.
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

/** Builds the bundles and names their folder to the test processes; the teardown it returns removes them. */
export default async function setup(): Promise<() => Promise<void>> {
  // Both projects (SQLite and PostgreSQL) run this setup in the same process: the first one builds.
  const built = process.env.SVC_TEST_WORKER_BUNDLES;
  if (built && existsSync(join(built, 'worker.mjs'))) return async () => {};
  // Inside the package, so the bundles' imports of npm packages resolve from its node_modules.
  const key = createHash('sha256').update(`${process.pid}-${Date.now()}`).digest('hex').slice(0, 12);
  const dir = join(server, 'node_modules', '.cache', 'svc-worker-bundles', key);
  await build({
    entryPoints: {
      worker: join(server, 'src/workers/worker.ts'),
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
    plugins: [sourcesOnly],
  });
  process.env.SVC_TEST_WORKER_BUNDLES = dir;
  return () => rm(dir, { recursive: true, force: true });
}
