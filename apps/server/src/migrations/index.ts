import type { Migration } from '../platform/db';
import { foundation } from './0001-foundation';

/** Every migration of the control database, in order. Add new ones at the end; never edit an applied one. */
export const migrations: readonly Migration[] = [foundation];
