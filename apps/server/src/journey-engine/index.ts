/** What other features use of the journey engine: figures of journeys for the overview. */
export { journeyEntriesAndGoals } from './overviewFigures';
