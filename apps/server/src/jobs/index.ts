/**
 * What other features use of jobs: the job table, the runner's job kinds (builds, loads and imports are jobs),
 * query inspection and result targets (scheduled queries), the wire form of a job and shared parameters.
 */

export type { IssueRequest, JobKind, JobOutcome } from './jobKind';
export {
  accountJobStates,
  insertJob,
  type JobRow,
  jobCountsByState,
  listJobs,
  retriableScheduledJobs,
} from './jobStore';
export { jobColumnOf, jobsByIds, type KindJobsQuery, kindJobs, setJobParams } from './kindJobs';
export { priorityParam, retryLimitParam } from './params';
export { QueryRefused } from './query/dialect';
export { inspectQuery, QUERY_TYPES } from './queryJob';
export { checkResultTarget } from './resultOutput';
export type { JobRunner } from './runner';
export { toV3Job } from './wire';
