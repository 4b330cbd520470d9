import { describe, expect, it } from 'vitest';
import { activationOffer, LAUNCHED_UNLINKED } from './activationOffer';

const list = [{ id: '7' }];

describe('what an activation step offers', () => {
  it('edits the linked activation, draft or launched', () => {
    expect(activationOffer({ linkedId: '7', activations: list, launched: false })).toEqual({
      kind: 'edit',
      activationId: '7',
    });
    expect(activationOffer({ linkedId: '7', activations: list, launched: true })).toEqual({
      kind: 'edit',
      activationId: '7',
    });
  });

  it('creates (and links) an activation for a draft step with none or an unknown one', () => {
    expect(activationOffer({ linkedId: null, activations: list, launched: false })).toEqual({ kind: 'create' });
    expect(activationOffer({ linkedId: '99', activations: list, launched: false })).toEqual({ kind: 'create' });
  });

  it('does not offer a new activation on a launched journey, whose steps cannot be relinked', () => {
    expect(activationOffer({ linkedId: null, activations: list, launched: true })).toEqual({
      kind: 'unavailable',
      reason: LAUNCHED_UNLINKED,
    });
    expect(activationOffer({ linkedId: '99', activations: list, launched: true }).kind).toBe('unavailable');
  });

  it('waits for the activations before offering to create one where that could replace a link', () => {
    expect(activationOffer({ linkedId: '7', activations: null, launched: false })).toEqual({ kind: 'loading' });
    expect(activationOffer({ linkedId: null, activations: null, launched: true })).toEqual({ kind: 'loading' });
    expect(activationOffer({ linkedId: null, activations: null, launched: false })).toEqual({ kind: 'create' });
  });
});
