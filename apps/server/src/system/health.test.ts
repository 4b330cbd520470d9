import { renameSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';

describe('liveness and readiness', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const probe = async (path: string) => {
    const res = await h.call('GET', path, { key: null });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers both without a key while everything is up, and server_status as before', async () => {
    expect(await probe('/health/live')).toEqual({ status: 200, body: { status: 'alive' } });
    const ready = await probe('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: [
        { name: 'start-up', ok: true },
        { name: 'control database', ok: true },
        { name: 'data plane', ok: true },
      ],
    });
    expect(await probe('/v3/system/server_status')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  // On PostgreSQL the data plane is the database itself: databaseFaults.test.ts takes it away.
  it('is not ready while the data plane is unavailable, stays alive, and is ready again once it is back', async () => {
    const aside = `${h.dataDir}.aside`;
    renameSync(h.dataDir, aside);
    try {
      if (testBackend() === 'postgres') {
        expect((await probe('/health/ready')).status).toBe(200);
        return;
      }
      const down = await probe('/health/ready');
      expect(down.status).toBe(503);
      expect(down.body.status).toBe('not ready');
      expect(down.body.checks).toContainEqual({
        name: 'data plane',
        ok: false,
        message: 'the data folder (SVC_DATA_DIR) is missing or not writable',
      });
      expect((await probe('/health/live')).status).toBe(200);
    } finally {
      renameSync(aside, h.dataDir);
    }
    expect((await probe('/health/ready')).status).toBe(200);
  });
});
