import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { encodeRecords } from '@svc/bulk-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../testing/harness';
import { abs, performFiles } from './files';
import { requireSession } from './sessions';
import { keepFiles, openFile, removeDir } from './sharedFiles';
import { harnessWithSession, ok, performAndWait, show, tableRows, uploadRows } from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await harnessWithSession();
});
afterEach(() => h.close());

describe('a session performed before rows were staged by column', () => {
  it('commits the one file of msgpack records such a perform left, and removes it', async () => {
    await uploadRows(h, 's1', 'p1', [{ time: 1700000000, n: 1 }]);
    await performAndWait(h, 's1');
    // Make the perform look like one of the former format: its staged rows as one file of records, no manifest.
    const session = await requireSession(h.deps.storage.db, h.admin.accountId, 's1');
    const files = performFiles(session, session.perform_token as string);
    await removeDir(h.deps, session.account_id, files.stagedDir);
    const legacy = [
      { time: 1700000001, n: 2, tag: 'a' },
      { time: 1700000002, n: 3.5, tag: null },
    ];
    const path = abs(h.deps.config.dataDir, files.legacyStaged);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, encodeRecords(legacy));
    await keepFiles(h.deps, session.account_id, [files.legacyStaged]);

    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    expect(await show(h, 's1')).toMatchObject({ status: 'committed' });
    expect(await tableRows(h, 'shop', 'events')).toEqual([
      { time: 1700000001, n: 2, tag: 'a' },
      { time: 1700000002, n: 3.5, tag: null },
    ]);
    expect(await openFile(h.deps, session.account_id, files.legacyStaged)).toBeNull();
  });
});
