import type { Migration } from '../platform/db';

/** The journey engine's tables that took a row per profile, or several, on every busy run (as of this migration). */
const JOURNEY_ROWS_UNCHECKED_ON_POSTGRES = [
  'journey_profile_states',
  'journey_profile_events',
  'journey_activation_queue',
  'journey_ab_assignments',
];

/**
 * On PostgreSQL, the journey engine's per-profile tables lose their foreign keys (to `accounts` and to `journeys`):
 * PostgreSQL checks a foreign key row by row with a query of its own, which took about three quarters of the time
 * of each row written (1,000,000 event rows: 7.8–11.5 s with both keys, 1.8–2.1 s without; a busy run writes six
 * per profile). What they guarded stays: a trigger deletes a journey's rows with the journey, as ON DELETE CASCADE
 * did, and a run's every part first takes a key-share lock on its journey's row (journey-engine/store.ts
 * `saveRun`), so no part commits for a journey deleted meanwhile. Accounts are never deleted. SQLite keeps its
 * keys: it checks them for about a tenth of a row's cost, and dropping them would rebuild the tables.
 */
export const journeyRowsWithoutRowChecks: Migration = {
  version: 49,
  name: 'journey engine: per-profile rows without per-row foreign key checks on PostgreSQL',
  sqlite: 'SELECT 1;',
  postgres: `
    DO $$
    DECLARE r record;
    BEGIN
      FOR r IN
        SELECT conrelid::regclass::text AS tab, conname FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text IN (${JOURNEY_ROWS_UNCHECKED_ON_POSTGRES.map((t) => `'${t}'`).join(', ')})
      LOOP
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.tab, r.conname);
      END LOOP;
    END $$;

    CREATE FUNCTION journey_engine_rows_go() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
${JOURNEY_ROWS_UNCHECKED_ON_POSTGRES.map((t) => `      DELETE FROM ${t} WHERE journey_id = OLD.id AND account_id = OLD.account_id;`).join('\n')}
      RETURN OLD;
    END $fn$;

    CREATE TRIGGER journeys_engine_rows_go AFTER DELETE ON journeys
      FOR EACH ROW EXECUTE FUNCTION journey_engine_rows_go();
  `,
};
