import { describe, expect, it } from 'vitest';
import { formatElapsed, lastPerformProgress } from './performProgress';

describe('lastPerformProgress', () => {
  it('reads the newest progress line among the job output', () => {
    const out = [
      'performing bulk import session s1',
      'perform progress: 0/10 parts, 0 records',
      'perform progress: 3/10 parts, 300000 records',
      'perform progress: 4/10 parts, 412345 records',
      '',
    ].join('\n');
    expect(lastPerformProgress(out)).toEqual({ partsDone: 4, partsTotal: 10, records: 412345 });
  });

  it('is null before the first report and ignores lines that only look alike', () => {
    expect(lastPerformProgress(null)).toBeNull();
    expect(lastPerformProgress('performing bulk import session s1\n')).toBeNull();
    expect(lastPerformProgress('user said: perform progress: 1/2 parts, 3 records!\n')).toBeNull();
  });
});

describe('formatElapsed', () => {
  it('shows tenths below ten seconds, whole seconds below a minute, then minutes', () => {
    expect(formatElapsed(420)).toBe('0.4 s');
    expect(formatElapsed(12_900)).toBe('12 s');
    expect(formatElapsed(185_000)).toBe('3 min 05 s');
    expect(formatElapsed(-5)).toBe('0.0 s');
  });
});
