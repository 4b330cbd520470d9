import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParentSegment, importRows, type Json, ok } from './audiences/testing/audiences';
import { one, run, sql } from './platform/storage';
import { createHarness, type Harness } from './testing/harness';

/**
 * Stored JSON is read through the zod schema that is its type: a row edited by hand (or written by a bug) into
 * a shape the server does not expect is answered with a 500 that names the table and column, not a crash
 * further on, and nothing is written.
 */
describe('stored JSON that does not match its schema', () => {
  let h: Harness;
  let accountId: number;
  let parent: Json;
  let segment: Json;

  beforeAll(async () => {
    h = await createHarness();
    accountId = h.admin.accountId;
    await importRows(h, 'crm', 'people', [{ id: 'a', plan: 'pro' }]);
    await importRows(h, 'crm', 'orders', [{ id: 'a', total: 3 }]);
    parent = await createParentSegment(h, {
      name: 'People',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: [{ name: 'plan', parentColumn: 'plan' }],
    });
    const rule = {
      type: 'And',
      conditions: [{ type: 'Value', leftValue: { name: 'plan' }, operator: { type: 'Equal', rightValue: 'pro' } }],
    };
    segment = await ok(h.call('POST', `/audiences/${parent.id}/segments`, { json: { name: 'Pro', rule } }));
  });
  afterAll(() => h.close());

  /** The answer to a request that reads a malformed stored value: a 500 naming where it is stored. */
  async function refused(res: Promise<Response>, where: string) {
    const r = await res;
    const body = (await r.json()) as { error: string; message: string };
    expect(r.status).toBe(500);
    expect(body.error).toBe('Internal Server Error');
    expect(body.message).toContain(`The data stored in ${where} does not have the shape this server expects`);
    expect(h.logs.join('\n')).toContain('stored data unreadable');
  }

  it('a table schema (tables.schema_json)', async () => {
    const where = sql`account_id = ${accountId} AND name = 'orders'`;
    await run(h.deps.storage.db, sql`UPDATE tables SET schema_json = '[["total"]]' WHERE ${where}`);
    const before = await one<{ n: number }>(h.deps.storage.db, sql`SELECT COUNT(*) AS n FROM parent_segments`);
    await refused(
      h.call('POST', '/audiences', {
        json: { name: 'Orders', master: { parentDatabaseName: 'crm', parentTableName: 'orders', parentKey: 'id' } },
      }),
      'tables.schema_json',
    );
    const after = await one<{ n: number }>(h.deps.storage.db, sql`SELECT COUNT(*) AS n FROM parent_segments`);
    expect(Number(after?.n)).toBe(Number(before?.n));
  });

  it('a segment rule (segments.rule_json)', async () => {
    await run(
      h.deps.storage.db,
      sql`UPDATE segments SET rule_json = '{"type":"Nor"}' WHERE id = ${Number(segment.id)}`,
    );
    await refused(h.call('GET', `/audiences/${parent.id}/segments/${segment.id}`), 'segments.rule_json');
    await run(h.deps.storage.db, sql`UPDATE segments SET rule_json = 'not json' WHERE id = ${Number(segment.id)}`);
    await refused(h.call('GET', `/audiences/${parent.id}/segments`), 'segments.rule_json');
  });

  it('a parent segment definition (parent_segments.definition_json)', async () => {
    await run(
      h.deps.storage.db,
      sql`UPDATE parent_segments SET definition_json = '{"master":{}}' WHERE id = ${Number(parent.id)}`,
    );
    await refused(h.call('GET', `/audiences/${parent.id}`), 'parent_segments.definition_json');
  });

  it("an audit entry's details (audit_events.details)", async () => {
    await run(
      h.deps.storage.db,
      sql`INSERT INTO audit_events (account_id, at, actor_user_id, actor, action, target, outcome, reason, details)
          VALUES (${accountId}, ${h.clock.now().getTime()}, NULL, 'someone', 'user.sign_in', NULL, 'success', NULL, '[1]')`,
    );
    await refused(h.call('GET', '/v3/account/audit_log'), 'audit_events.details');
  });
});
