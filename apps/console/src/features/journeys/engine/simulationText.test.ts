import { describe, expect, it } from 'vitest';
import { stoppedText, withNames } from './simulationText';

const names = {
  segment: (id: string) => ({ '12': 'Customers in Japan' })[id],
  activation: (id: string) => ({ '901': 'Welcome e-mail' })[id],
};

describe('simulation explanations', () => {
  it('names the segments and activations the engine gives by id', () => {
    expect(withNames('Decision point: in segment 12, the first matching path, so follows "Japan".', names)).toBe(
      'Decision point: in segment “Customers in Japan”, the first matching path, so follows "Japan".',
    );
    expect(withNames('Activation: queued for the next delivery of activation 901.', names)).toBe(
      'Activation: queued for the next delivery of activation “Welcome e-mail”.',
    );
  });

  it('leaves ids it does not know as they are', () => {
    expect(withNames('Enters the journey at stage "A": in its entry segment 77.', names)).toBe(
      'Enters the journey at stage "A": in its entry segment 77.',
    );
  });

  it('says why a path stopped', () => {
    expect(stoppedText({ stoppedBecause: 'no_entry', position: null })).toMatch(/^Does not enter/);
    expect(stoppedText({ stoppedBecause: 'settled', position: null })).toMatch(/^Settles/);
  });
});
