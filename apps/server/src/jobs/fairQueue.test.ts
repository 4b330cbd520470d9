import { describe, expect, it } from 'vitest';
import { type FairState, fairOrder, nextFair, type QueuedJob } from './fairQueue';

const idle: FairState = {
  runningByAccount: new Map(),
  runningByUser: new Map(),
  lastServedAccount: new Map(),
  lastServedUser: new Map(),
};
let seq = 0;
const job = (account: number, user: number, priority = 0): QueuedJob => ({
  id: ++seq,
  account_id: account,
  user_id: user,
  priority,
});
const ids = (jobs: QueuedJob[]) => jobs.map((j) => `${j.account_id}/${j.user_id}`);

describe('fair order', () => {
  it('alternates between accounts, then between the users of an account, not first come', () => {
    // Account 1's user 10 queued four jobs before anybody else.
    const queued = [job(1, 10), job(1, 10), job(1, 10), job(1, 10), job(1, 11), job(2, 20), job(2, 21)];
    expect(ids(fairOrder(queued, idle))).toEqual(['1/10', '2/20', '1/11', '2/21', '1/10', '1/10', '1/10']);
  });

  it('serves first the account served least recently', () => {
    const state = { ...idle, lastServedAccount: new Map([[1, 5]]), lastServedUser: new Map([['1/10', 5]]) };
    expect(ids(fairOrder([job(1, 10), job(2, 20)], state))).toEqual(['2/20', '1/10']);
  });

  it('keeps priority then age within one user', () => {
    const a = job(1, 10);
    const b = job(1, 10, 2);
    const c = job(1, 10);
    expect(fairOrder([a, b, c], idle).map((j) => j.id)).toEqual([b.id, a.id, c.id]);
  });
});

describe('next fair job', () => {
  const limits = { slots: 4, overflow: 0, perAccount: 3, perUser: 2 };

  it('skips a user at their limit, so another user of the account starts', () => {
    const state = { ...idle, runningByAccount: new Map([[1, 2]]), runningByUser: new Map([['1/10', 2]]) };
    const next = nextFair([job(1, 10), job(1, 11)], state, limits);
    expect(next?.user_id).toBe(11);
  });

  it('skips an account at its limit, so another account starts', () => {
    const state = {
      ...idle,
      runningByAccount: new Map([[1, 3]]),
      runningByUser: new Map([
        ['1/10', 2],
        ['1/11', 1],
      ]),
    };
    const next = nextFair([job(1, 12), job(2, 20)], state, limits);
    expect(next?.account_id).toBe(2);
  });

  it('starts nothing when every queued job is over a limit', () => {
    const state = { ...idle, runningByAccount: new Map([[1, 3]]), runningByUser: new Map([['1/10', 2]]) };
    expect(nextFair([job(1, 10), job(1, 11)], state, limits)).toBeNull();
  });

  it('starts past the slots, in an overflow slot, only a job of an account that runs nothing', () => {
    const state = { ...idle, runningByAccount: new Map([[1, 2]]), runningByUser: new Map([['1/10', 2]]) };
    const overflowing = { ...limits, overflow: 2 };
    // Every slot taken: account 1, running jobs, waits; account 2, running nothing, starts.
    expect(nextFair([job(1, 11)], state, overflowing, 4)).toBeNull();
    expect(nextFair([job(1, 11), job(2, 20)], state, overflowing, 4)?.account_id).toBe(2);
    // Within the slots, anybody under their limits starts; past slots and overflow, nobody.
    expect(nextFair([job(1, 11)], state, overflowing, 3)?.account_id).toBe(1);
    expect(nextFair([job(2, 20)], state, overflowing, 6)).toBeNull();
    expect(nextFair([job(2, 20)], state, limits, 4)).toBeNull();
  });
});
