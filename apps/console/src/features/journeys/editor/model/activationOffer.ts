/**
 * What an activation step offers about its activation. The server lets a launched journey's activations
 * change but not its steps (PATCH answers 409), so on a launched journey a new activation could never be
 * linked to the step: it is not offered, and the reason is said instead.
 */
export type ActivationOffer =
  | { kind: 'edit'; activationId: string }
  | { kind: 'create' }
  | { kind: 'loading' }
  | { kind: 'unavailable'; reason: string };

export interface ActivationOfferInput {
  /** The step's `journeyActivationStepId`. */
  linkedId: string | null;
  /** The journey's activations; null while they load. */
  activations: ReadonlyArray<{ id: string }> | null;
  launched: boolean;
}

export const LAUNCHED_UNLINKED =
  'This journey is launched, so its steps can no longer change and a new activation could not be linked to this step. Duplicate the journey to get an editable draft, and create the activation there.';

export function activationOffer({ linkedId, activations, launched }: ActivationOfferInput): ActivationOffer {
  if (activations === null) return linkedId || launched ? { kind: 'loading' } : { kind: 'create' };
  if (linkedId && activations.some((a) => a.id === linkedId)) return { kind: 'edit', activationId: linkedId };
  // A draft's step may name no activation, or one that is gone: a new one is created and linked on save.
  return launched ? { kind: 'unavailable', reason: LAUNCHED_UNLINKED } : { kind: 'create' };
}
