// Entry of a background worker thread. Plain JavaScript so the pool needs no loader flag in any runner
// (tsx, vitest, node): it registers tsx, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
