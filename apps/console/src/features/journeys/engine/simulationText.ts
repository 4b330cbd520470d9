import type { SimulatedProfile } from '@svc/contracts';

/** Why a simulated path ended, in words. */
export function stoppedText(profile: Pick<SimulatedProfile, 'stoppedBecause' | 'position'>): string {
  switch (profile.stoppedBecause) {
    case 'no_entry':
      return 'Does not enter: in no stage’s entry segment (or already in the goal or an exit segment).';
    case 'left':
      return 'Leaves the journey before the end of the simulation.';
    case 'settled':
      return 'Settles where it is: nothing more happens without a change in its segments.';
    case 'until':
      return 'Would move on again after the end of the simulated period.';
  }
}

/**
 * The engine explains steps with ids ("in segment 12", "activation 901"); people know segments and
 * activations by name. Ids with a known name get it; others stay as they are.
 */
export function withNames(
  text: string,
  names: { segment(id: string): string | undefined; activation(id: string): string | undefined },
): string {
  return text
    .replace(/\bsegment ([\w-]+)/g, (whole, id: string) => {
      const name = names.segment(id);
      return name ? `segment “${name}”` : whole;
    })
    .replace(/\bactivation ([\w-]+)/g, (whole, id: string) => {
      const name = names.activation(id);
      return name ? `activation “${name}”` : whole;
    });
}
