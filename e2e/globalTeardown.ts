import { rmSync } from 'node:fs';

/** Removes the run's temporary data directory (made in playwright.config.ts). */
export default function globalTeardown() {
  const dir = process.env.SVC_E2E_DATA_DIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
