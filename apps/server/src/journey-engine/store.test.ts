import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent, ProfileState } from '@svc/journey-engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { insertJourneyRow } from '../journeys/store';
import { type Db, openControlDb } from '../platform/db';
import { finishRun, insertRun, loadStates, type RunOutcome, saveRunInChunks } from './store';

let dir: string;
let db: Db;
let accountId: number;
let journeyId: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-store-'));
  db = openControlDb(join(dir, 'control.sqlite'));
  accountId = Number(db.prepare('INSERT INTO accounts (name, created_at) VALUES (?, ?)').run('a', 0).lastInsertRowid);
  journeyId = insertJourneyRow(db, {
    accountId,
    parentSegmentId: '1',
    folderId: '1',
    name: 'j',
    state: 'launched',
    body: scenarioJourney(),
    userId: 0,
    now: 0,
  });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const state = (key: string, status: ProfileState['status'] = 'active'): ProfileState => ({
  profileKey: key,
  status,
  stageId: 's1',
  stepId: 'w1',
  journeyEnteredAt: 1,
  stageEnteredAt: 1,
  stepEnteredAt: 1,
  entries: 1,
  leftAt: null,
  leftReason: null,
  variants: {},
  branches: {},
  held: false,
  lastRunAt: 1,
});

/** n profiles, each with a state and two events (entered the journey, then the stage). */
function outcome(n: number, broken?: string): RunOutcome {
  const changed = new Map<string, ProfileState>();
  const events: EngineEvent[] = [];
  for (let i = 0; i < n; i++) {
    const key = `p${i}`;
    // A status the table refuses makes that profile's transaction fail, as a crash there would.
    changed.set(key, state(key, key === broken ? ('broken' as ProfileState['status']) : 'active'));
    events.push({ at: 1, profileKey: key, type: 'journey_entered' } as EngineEvent);
    events.push({ at: 1, profileKey: key, type: 'stage_entered', stageId: 's1' } as EngineEvent);
  }
  return { changed, events, queued: [] };
}

const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

describe('saving a run in short transactions', () => {
  it('saves every profile of a large run, and records the run once its last part is in', () => {
    const runId = insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'error', error: 'saving' });
    saveRunInChunks(db, accountId, journeyId, runId, outcome(2500), () => finishRun(db, runId, { status: 'success' }));
    expect(loadStates(db, accountId, journeyId).size).toBe(2500);
    expect(count('SELECT COUNT(*) AS n FROM journey_profile_events')).toBe(5000);
    expect(db.prepare('SELECT status, error FROM journey_runs WHERE id = ?').get(runId)).toEqual({
      status: 'success',
      error: null,
    });
  });

  it('leaves each profile whole when a part fails: the saved ones moved, the others untouched, the run not finished', () => {
    const runId = insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'error', error: 'saving' });
    // p1500 is in the second part of 1,000 profiles.
    expect(() =>
      saveRunInChunks(db, accountId, journeyId, runId, outcome(2500, 'p1500'), () =>
        finishRun(db, runId, { status: 'success' }),
      ),
    ).toThrow(/CHECK constraint/);
    const states = loadStates(db, accountId, journeyId);
    expect(states.size).toBe(1000);
    // Every saved profile has both its events, and no event belongs to a profile without its state.
    const perProfile = db
      .prepare('SELECT profile_key AS key, COUNT(*) AS n FROM journey_profile_events GROUP BY profile_key')
      .all() as { key: string; n: number }[];
    expect(perProfile).toHaveLength(1000);
    for (const { key, n } of perProfile) {
      expect(states.has(key)).toBe(true);
      expect(n).toBe(2);
    }
    expect(db.prepare('SELECT status FROM journey_runs WHERE id = ?').get(runId)).toEqual({ status: 'error' });
  });
});
