import { describe, expect, it } from 'vitest';
import { percentProblem } from './PercentInput';

describe('percentage inputs', () => {
  it('accept whole numbers from 0 to 100 and say why anything else is refused', () => {
    expect(percentProblem(0)).toBeNull();
    expect(percentProblem('100')).toBeNull();
    expect(percentProblem(500)).toBe('500 % is not a share: give a number from 0 to 100.');
    expect(percentProblem('')).toBe('Give a share from 0 to 100 %.');
    expect(percentProblem('2.5')).toBe('Give a whole number of percent.');
  });
});
