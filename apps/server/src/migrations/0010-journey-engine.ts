import type { Migration } from '../platform/db';

/**
 * The journey engine's storage: where each profile stands in each journey (one row per profile, kept
 * after it leaves so re-entry rules hold), the append-only per-profile event log, the profiles queued
 * for activations (delivery_id set once a delivery took them), one row per delivery (CSV deliveries keep their file), the notifications outbox, the A/B assignments (also read by
 * variant segments, spec rule 7) and one row per engine run. Times are Unix milliseconds. Keys and indexes
 * lead with journey_id (journey ids are unique across accounts), which also serves the cascade on delete;
 * every query still filters by account_id.
 */
export const journeyEngine: Migration = {
  version: 10,
  name: 'journey engine: profile states, profile events, activation queue, deliveries, A/B assignments, runs',
  sqlite: `
    CREATE TABLE journey_profile_states (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      profile_key TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'left')),
      stage_id TEXT NOT NULL,
      step_id TEXT,
      journey_entered_at INTEGER NOT NULL,
      stage_entered_at INTEGER NOT NULL,
      step_entered_at INTEGER NOT NULL,
      entries INTEGER NOT NULL,
      left_at INTEGER,
      left_reason TEXT,
      variants TEXT NOT NULL,
      branches TEXT NOT NULL,
      held INTEGER NOT NULL CHECK (held IN (0, 1)),
      last_run_at INTEGER NOT NULL,
      PRIMARY KEY (journey_id, profile_key)
    ) WITHOUT ROWID;
    CREATE INDEX journey_profile_states_position ON journey_profile_states(journey_id, status, stage_id, step_id);

    CREATE TABLE journey_profile_events (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      run_id INTEGER NOT NULL,
      at INTEGER NOT NULL,
      profile_key TEXT NOT NULL,
      type TEXT NOT NULL,
      stage_id TEXT,
      step_id TEXT,
      branch_id TEXT,
      variant_id TEXT,
      activation_id TEXT,
      segment_id TEXT,
      reason TEXT,
      criterion_index INTEGER,
      bucket INTEGER,
      kept INTEGER,
      due_at INTEGER
    );
    CREATE INDEX journey_profile_events_time ON journey_profile_events(journey_id, at);

    CREATE TABLE journey_activation_queue (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      activation_id TEXT NOT NULL,
      profile_key TEXT NOT NULL,
      stage_id TEXT NOT NULL,
      step_id TEXT NOT NULL,
      queued_at INTEGER NOT NULL,
      run_id INTEGER NOT NULL,
      delivery_id INTEGER
    );
    CREATE INDEX journey_activation_queue_pending ON journey_activation_queue(journey_id, activation_id, delivery_id);

    CREATE TABLE journey_ab_assignments (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      step_id TEXT NOT NULL,
      profile_key TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      bucket INTEGER,
      assigned_at INTEGER NOT NULL,
      PRIMARY KEY (journey_id, step_id, profile_key)
    ) WITHOUT ROWID;
    CREATE INDEX journey_ab_assignments_variant ON journey_ab_assignments(journey_id, step_id, variant_id);

    CREATE TABLE journey_deliveries (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      activation_id TEXT NOT NULL,
      at INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('success', 'error')),
      profiles INTEGER NOT NULL,
      target TEXT,
      error TEXT
    );
    CREATE INDEX journey_deliveries_activation ON journey_deliveries(journey_id, activation_id, id);

    CREATE TABLE journey_delivery_files (
      delivery_id INTEGER PRIMARY KEY REFERENCES journey_deliveries(id) ON DELETE CASCADE,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      content_type TEXT NOT NULL,
      body TEXT NOT NULL
    );

    CREATE TABLE journey_notifications (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      activation_id TEXT NOT NULL,
      delivery_id INTEGER,
      created_at INTEGER NOT NULL,
      recipients TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX journey_notifications_journey ON journey_notifications(journey_id, id);

    CREATE TABLE journey_runs (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      at INTEGER NOT NULL,
      trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'request')),
      status TEXT NOT NULL CHECK (status IN ('success', 'skipped', 'error')),
      skipped TEXT,
      profiles INTEGER NOT NULL DEFAULT 0,
      changed INTEGER NOT NULL DEFAULT 0,
      events INTEGER NOT NULL DEFAULT 0,
      queued INTEGER NOT NULL DEFAULT 0,
      duration_ms INTEGER NOT NULL DEFAULT 0,
      error TEXT
    );
    CREATE INDEX journey_runs_journey ON journey_runs(journey_id, id);
  `,
  postgres: `
    CREATE TABLE journey_profile_states (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      profile_key TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'left')),
      stage_id TEXT NOT NULL,
      step_id TEXT,
      journey_entered_at BIGINT NOT NULL,
      stage_entered_at BIGINT NOT NULL,
      step_entered_at BIGINT NOT NULL,
      entries BIGINT NOT NULL,
      left_at BIGINT,
      left_reason TEXT,
      variants TEXT NOT NULL,
      branches TEXT NOT NULL,
      held BIGINT NOT NULL CHECK (held IN (0, 1)),
      last_run_at BIGINT NOT NULL,
      PRIMARY KEY (journey_id, profile_key),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_profile_states_position ON journey_profile_states(journey_id, status, stage_id, step_id);

    CREATE TABLE journey_profile_events (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      run_id BIGINT NOT NULL,
      at BIGINT NOT NULL,
      profile_key TEXT NOT NULL,
      type TEXT NOT NULL,
      stage_id TEXT,
      step_id TEXT,
      branch_id TEXT,
      variant_id TEXT,
      activation_id TEXT,
      segment_id TEXT,
      reason TEXT,
      criterion_index BIGINT,
      bucket BIGINT,
      kept BIGINT,
      due_at BIGINT,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_profile_events_time ON journey_profile_events(journey_id, at);

    CREATE TABLE journey_activation_queue (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      activation_id TEXT NOT NULL,
      profile_key TEXT NOT NULL,
      stage_id TEXT NOT NULL,
      step_id TEXT NOT NULL,
      queued_at BIGINT NOT NULL,
      run_id BIGINT NOT NULL,
      delivery_id BIGINT,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_activation_queue_pending ON journey_activation_queue(journey_id, activation_id, delivery_id);

    CREATE TABLE journey_ab_assignments (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      step_id TEXT NOT NULL,
      profile_key TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      bucket BIGINT,
      assigned_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, journey_id, step_id, profile_key),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_ab_assignments_variant ON journey_ab_assignments(journey_id, step_id, variant_id);

    CREATE TABLE journey_deliveries (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      activation_id TEXT NOT NULL,
      at BIGINT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('success', 'error')),
      profiles BIGINT NOT NULL,
      target TEXT,
      error TEXT,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_deliveries_activation ON journey_deliveries(journey_id, activation_id, id);

    CREATE TABLE journey_delivery_files (
      delivery_id BIGINT NOT NULL,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      content_type TEXT NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (account_id, delivery_id),
      FOREIGN KEY (account_id, delivery_id) REFERENCES journey_deliveries(account_id, id) ON DELETE CASCADE
    );

    CREATE TABLE journey_notifications (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      activation_id TEXT NOT NULL,
      delivery_id BIGINT,
      created_at BIGINT NOT NULL,
      recipients TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_notifications_journey ON journey_notifications(journey_id, id);

    CREATE TABLE journey_runs (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      at BIGINT NOT NULL,
      trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'request')),
      status TEXT NOT NULL CHECK (status IN ('success', 'skipped', 'error')),
      skipped TEXT,
      profiles BIGINT NOT NULL DEFAULT 0,
      changed BIGINT NOT NULL DEFAULT 0,
      events BIGINT NOT NULL DEFAULT 0,
      queued BIGINT NOT NULL DEFAULT 0,
      duration_ms BIGINT NOT NULL DEFAULT 0,
      error TEXT,
      PRIMARY KEY (account_id, id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX journey_runs_journey ON journey_runs(journey_id, id);
    CREATE INDEX journey_runs_id ON journey_runs(id);
  `,
};
