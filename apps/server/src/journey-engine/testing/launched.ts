/** The journey engine's API set-up (fixture.ts) for other features' tests (the console overview's figures). */
export { DAY_MS, launchOverOneProfile } from '../fixture';
