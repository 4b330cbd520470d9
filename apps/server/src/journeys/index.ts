/**
 * What other features (the journey engine) use of the journeys feature: journey rows and their attributes,
 * pause events, activations, the folder permission check, and the OpenAPI pieces of the journey routes.
 * Ids are the rows' numbers; every function is scoped by account, and another account's journey is not found.
 */
export { requireJourneyControl } from './access';
export { type ActivationRow, activationsOf, getActivationRow, paramsOf } from './activationStore';
export { testWebhookSettings } from './activations';
export { renderTemplate } from './bodyTemplate';
export { journeyFolderEntries, journeySegmentUsage } from './folderEntries';
export { PAUSE_PERIOD } from './lifecycle';
export { activationIdParams, errorResponses, journeyIdParam, jsonBody, jsonResponse } from './openapi';
export {
  eventsOf,
  findJourneyRow,
  getJourneyRow,
  holdJourneyRow,
  type JourneyRow,
  launchedJourneys,
  runningJourneyRows,
} from './store';
export type { VersionPlan } from './versionPlan';
export { type Handover, pendingVersionPlan, type VersionHandover } from './versions';
export { type WebhookSettings, webhookSettingsOf } from './webhookConfig';
export { journeyOfRow } from './wire';
