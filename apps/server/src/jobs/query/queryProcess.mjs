// Entry of the query process. Plain JavaScript so `fork` needs no loader flag in any runner (tsx,
// vitest, node): it registers tsx, then loads the TypeScript worker; in the test suite, the worker bundled
// once per run instead (src/testing/workerBundles.ts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const bundles = process.env.SVC_TEST_WORKER_BUNDLES;
if (bundles) await import(pathToFileURL(join(bundles, 'query.mjs')).href);
else {
  register();
  await import('./queryWorker.ts');
}
