import type { JourneyVariantRef } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';

/**
 * Who knows the profiles of an A/B variant (spec rule 7): the composition root hands the journey engine's in, so
 * segment rules can count them without audiences importing journeys. The provider throws a 400 naming an
 * unknown journey, stage or variant, or a journey of another parent segment.
 */
export type VariantMembersProvider = (
  accountId: number,
  parentSegmentId: number,
  ref: JourneyVariantRef,
) => string[] | Promise<string[]>;

declare module '../platform/context' {
  interface Services {
    /** The journey engine's answer to rule 7 conditions, handed over by compose.ts; null where none runs. */
    variantMembers: VariantMembersProvider | null;
  }
}

/** The profile keys of the variant a rule 7 condition names, for one parent segment. */
export function variantMembersFor(deps: AppDeps, accountId: number, parentSegmentId: number) {
  return async (ref: JourneyVariantRef): Promise<string[]> => {
    const provider = deps.services?.variantMembers;
    if (!provider)
      throw badRequest('Journey variant conditions need the journey engine, which this server does not run.');
    return provider(accountId, parentSegmentId, ref);
  };
}
