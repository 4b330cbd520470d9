// Entry of the query process. Plain JavaScript so `fork` needs no loader flag in any runner (tsx,
// vitest, node): it registers tsx, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./queryWorker.ts');
