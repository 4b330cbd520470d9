import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage, testBackend } from '../../testing/storage';
import { tryLock, withLock } from './locks';
import type { OpenedStorage } from './open';

/** A promise and the function that settles it, so a test decides when a lock holder ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe(`named locks across nodes (${testBackend()})`, () => {
  let dir: string;
  let nodeA: TestStorage;
  let nodeB: OpenedStorage;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-locks-'));
    nodeA = await openTestStorage(dir);
    nodeB = await nodeA.openAgain();
  });
  afterEach(async () => {
    await nodeB.close();
    await nodeA.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one holder in at a time, on either node; a try while it is held runs nothing', async () => {
    const held = gate();
    const entered = gate();
    const holding = withLock(nodeA, 'journey:1', async () => {
      entered.open();
      await held.opened;
      return 'first';
    });
    await entered.opened;
    let ran = false;
    expect(await tryLock(nodeB, 'journey:1', async () => (ran = true))).toEqual({ ran: false });
    expect(await tryLock(nodeA, 'journey:1', async () => (ran = true))).toEqual({ ran: false });
    expect(ran).toBe(false);
    // Another name is free meanwhile.
    expect(await tryLock(nodeB, 'journey:2', async () => 'other')).toEqual({ ran: true, value: 'other' });
    held.open();
    expect(await holding).toBe('first');
    expect(await tryLock(nodeB, 'journey:1', async () => 'after')).toEqual({ ran: true, value: 'after' });
  });

  it('makes a waiting holder on the other node start only once the first has ended', async () => {
    const order: string[] = [];
    const held = gate();
    const entered = gate();
    const first = withLock(nodeA, 'run', async () => {
      entered.open();
      await held.opened;
      order.push('first ends');
    });
    await entered.opened;
    const second = withLock(nodeB, 'run', async () => {
      order.push('second starts');
    });
    // The second is waiting: a try on the first node still finds the lock held.
    expect(await tryLock(nodeA, 'run', async () => undefined)).toEqual({ ran: false });
    held.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['first ends', 'second starts']);
  });

  it('frees the lock when its holder throws', async () => {
    await expect(
      withLock(nodeA, 'failing', async () => {
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await tryLock(nodeB, 'failing', async () => 'free')).toEqual({ ran: true, value: 'free' });
  });
});
