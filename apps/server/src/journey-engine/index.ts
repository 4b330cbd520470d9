/**
 * What other features use of the journey engine: figures of journeys for the overview; and what the composition
 * root hands to journeys (moving profiles to a version) and audiences (rule 7's variant members).
 */
export { journeyEntriesAndGoals } from './overviewFigures';
export { variantRuleMembers } from './variants';
export { versionHandover } from './versions';
