import type { SegmentRule } from '@svc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFolder } from '../folders';
import { createHarness, type Harness } from '../testing/harness';
import {
  findParentSegment,
  findSegment,
  missingSegments,
  profileRows,
  segmentFingerprint,
  segmentProfileKeys,
} from './index';
import { createParentSegment, DAY, importRows, type Json, nowSeconds, ok } from './testing/audiences';

/** The interface other features use (journeys API, journey engine). */
describe('audiences lookup', () => {
  let h: Harness;
  let record: Json;
  let segment: Json;
  let accountId: number;
  const rule = {
    type: 'And' as const,
    conditions: [
      {
        type: 'Value' as const,
        leftValue: { name: 'seen' },
        operator: { type: 'TimeWithinPast' as const, value: 7, unit: 'day' as const },
      },
    ],
  };

  beforeAll(async () => {
    h = await createHarness();
    accountId = h.admin.accountId;
    const now = nowSeconds(h);
    await importRows(h, 'crm', 'people', [
      { id: 'a', plan: 'pro', seen: now - DAY },
      { id: 'b', plan: 'free', seen: now - 9 * DAY },
      { id: 'c', plan: 'pro', seen: now - 2 * DAY },
    ]);
    record = await createParentSegment(h, {
      name: 'People',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: [
        { name: 'plan', parentColumn: 'plan' },
        { name: 'seen', parentColumn: 'seen', type: 'timestamp' },
      ],
    });
    segment = await ok(h.call('POST', `/audiences/${record.id}/segments`, { json: { name: 'Seen lately', rule } }));
  });
  afterAll(() => h.close());

  it('finds parent segments, segments and folders of the account only', async () => {
    expect(await findParentSegment(h.deps, accountId, record.id as string)).toEqual({
      id: record.id,
      name: 'People',
      rootFolderId: record.rootFolderId,
      key: 'id',
      columns: [
        { name: 'id', type: 'string' },
        { name: 'plan', type: 'string' },
        { name: 'seen', type: 'timestamp' },
      ],
    });
    const other = await h.newAccount('Other');
    expect(await findParentSegment(h.deps, other.accountId, record.id as string)).toBeNull();
    expect(await findParentSegment(h.deps, accountId, 'x')).toBeNull();
    expect((await findSegment(h.deps, accountId, record.id as string, segment.id as string))?.name).toBe('Seen lately');
    expect(await missingSegments(h.deps, accountId, record.id as string, [segment.id as string, '999', 'x'])).toEqual([
      '999',
      'x',
    ]);
    const sub = await ok<{ data: Json }>(
      h.call('POST', '/entities/folders', { json: { name: 'Sub', parentFolderId: record.rootFolderId } }),
    );
    expect(await findFolder(h.deps, accountId, sub.data.id as string)).toEqual({
      id: sub.data.id,
      parentId: record.rootFolderId,
      parentSegmentId: record.id,
      name: 'Sub',
      ancestorIds: [record.rootFolderId],
    });
    expect(await findFolder(h.deps, other.accountId, sub.data.id as string)).toBeNull();
  });

  it('gives the profile keys of a segment or a rule at a moment, and their attributes', async () => {
    const at = h.clock.now();
    expect(await segmentProfileKeys(h.deps, accountId, record.id as string, segment.id as string, at)).toEqual([
      'a',
      'c',
    ]);
    expect(
      await segmentProfileKeys(h.deps, accountId, record.id as string, rule, new Date(at.getTime() - 1.5 * DAY * 1000)),
    ).toEqual(['c']);
    expect(await profileRows(h.deps, accountId, record.id as string, ['c', 'zzz', 'a'])).toEqual([
      { key: 'a', attributes: { plan: 'pro', seen: nowSeconds(h) - DAY } },
      { key: 'c', attributes: { plan: 'pro', seen: nowSeconds(h) - 2 * DAY } },
    ]);
    await expect(segmentProfileKeys(h.deps, accountId, '999', segment.id as string, at)).rejects.toThrow(
      'Resource not found',
    );
  });

  it('tells sets of profiles apart by their fingerprint, whatever rule gives them', async () => {
    const at = h.clock.now();
    const fingerprint = (of: string | SegmentRule) =>
      segmentFingerprint(h.deps, accountId, record.id as string, of, at);
    const plan = (value: string): SegmentRule & { type: 'And' } => ({
      type: 'And' as const,
      conditions: [
        {
          type: 'Value' as const,
          leftValue: { name: 'plan' },
          operator: { type: 'Equal' as const, rightValue: value },
        },
      ],
    });
    // 'a' and 'c': seen within the past 7 days, and on the pro plan.
    const seenLately = await fingerprint(segment.id as string);
    expect(await fingerprint(plan('pro'))).toBe(seenLately);
    // Another set of the same size ('a' and 'b': on the free plan, or seen in the past 36 hours), a smaller one,
    // none, and everyone: each its own.
    const lastHours = {
      type: 'Value' as const,
      leftValue: { name: 'seen' },
      operator: { type: 'TimeAfter' as const, rightValue: nowSeconds(h) - 1.5 * DAY },
    };
    const others = [
      await fingerprint({
        type: 'And',
        conditions: [{ type: 'Or', conditions: [...plan('free').conditions, lastHours] }],
      }),
      await fingerprint(plan('free')),
      await fingerprint(plan('none')),
      await fingerprint({ type: 'And', conditions: [] }),
    ];
    expect(new Set([seenLately, ...others]).size).toBe(5);
    // Seen within the past 7 days, a day and a half ago: only 'c', the set of another rule of one profile.
    const before = new Date(at.getTime() - 1.5 * DAY * 1000);
    expect(await segmentFingerprint(h.deps, accountId, record.id as string, rule, before)).not.toBe(seenLately);
    await expect(fingerprint('999')).rejects.toThrow('Resource not found');
  });
});
