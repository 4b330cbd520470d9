import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../testing/harness';
import { abs, performFiles } from './files';
import { requireSession } from './sessions';
import { keepFiles } from './sharedFiles';
import { harnessWithSession, performAndWait, show, uploadRows } from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await harnessWithSession();
});
afterEach(() => h.close());

describe("a perform's manifest of another shape", () => {
  it('fails the commit naming the manifest, and commits nothing', async () => {
    await uploadRows(h, 's1', 'p1', [{ time: 1700000000, n: 1 }]);
    await performAndWait(h, 's1');
    const session = await requireSession(h.deps.storage.db, h.admin.accountId, 's1');
    const files = performFiles(session, session.perform_token as string);
    writeFileSync(abs(h.deps.config.dataDir, files.manifest), JSON.stringify({ format: 1, files: 'staged-0' }));
    await keepFiles(h.deps, session.account_id, [files.manifest]);

    const res = await h.call('POST', '/v3/bulk_import/commit/s1');
    const body = (await res.json()) as { message: string };
    expect(res.status).toBe(500);
    expect(body.message).toContain(
      "The data stored in the perform's manifest.json does not have the shape this server expects (files: ",
    );
    expect((await show(h, 's1')).status).not.toBe('committed');
  });
});
