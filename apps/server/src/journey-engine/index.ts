/**
 * What other features use of the journey engine: figures of journeys for the overview; and what the composition
 * root hands to journeys (moving profiles to a version) and audiences (rule 7's variant members); and how a row of
 * its event log reads (the migration that made that form proves what it moved).
 */
export { eventsOfRow } from './eventLog';
export { journeyEntriesAndGoals } from './overviewFigures';
export { variantRuleMembers } from './variants';
export { versionHandover } from './versions';
