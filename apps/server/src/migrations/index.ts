import type { Migration } from '../platform/db';
import { foundation } from './0001-foundation';
import { dataCatalog } from './0002-data-catalog';
import { jobs } from './0003-jobs';
import { loginFailures } from './0004-login-failures';
import { bulk } from './0005-bulk';
import { sso } from './0006-sso';
import { audiences } from './0007-audiences';
import { journeys } from './0008-journeys';
import { dwh } from './0009-dwh';
import { journeyEngine } from './0010-journey-engine';
import { securityHardening } from './0011-security-hardening';
import { deliveryResponse } from './0012-delivery-response';
import { demo } from './0013-demo';
import { jobRunners } from './0014-job-runners';
import { bulkLoadIds } from './0015-bulk-load-ids';
import { schedules } from './0016-schedules';
import { teams } from './0017-teams';
import { dwhDayTwo } from './0018-dwh-day-two';
import { journeyVersions } from './0019-journey-versions';
import { sharedByNodes } from './0022-shared-by-nodes';
import { emailsPerAccount } from './0024-emails-per-account';
import { journeyFigures } from './0033-journey-figures';
import { savedQueries } from './0036-saved-queries';
import { ssoDomains } from './0037-sso-domains';
import { schedulePause } from './0038-schedule-pause';
import { ingestDays } from './0039-ingest-days';
import { journeyWakeTimes } from './0040-journey-wake-times';
import { oneTimeLinks } from './0043-one-time-links';
import { ssoMetadataUrl } from './0044-sso-metadata-url';
import { journeyPositions } from './0045-journey-positions';
import { journeyFigureDays } from './0046-journey-figure-days';
import { journeyStatesIndex } from './0047-journey-states-index';
import { journeyEventsTypeIndex } from './0048-journey-events-type-index';
import { journeyRowsWithoutRowChecks } from './0049-journey-rows-without-row-checks';
import { journeyRunEvents } from './0050-journey-run-events';
import { journeyFigureInstants } from './0051-journey-figure-instants';

/** Every migration of the control database, in order. Add new ones at the end; never edit an applied one. */
export const migrations: readonly Migration[] = [
  foundation,
  dataCatalog,
  jobs,
  loginFailures,
  bulk,
  sso,
  audiences,
  journeys,
  dwh,
  journeyEngine,
  securityHardening,
  deliveryResponse,
  demo,
  jobRunners,
  bulkLoadIds,
  schedules,
  teams,
  dwhDayTwo,
  journeyVersions,
  sharedByNodes,
  emailsPerAccount,
  journeyFigures,
  savedQueries,
  ssoDomains,
  schedulePause,
  ingestDays,
  journeyWakeTimes,
  oneTimeLinks,
  ssoMetadataUrl,
  journeyPositions,
  journeyFigureDays,
  journeyStatesIndex,
  journeyEventsTypeIndex,
  journeyRowsWithoutRowChecks,
  journeyRunEvents,
  journeyFigureInstants,
];
