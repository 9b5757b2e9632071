import { defineProblem } from '../problems.js';
import { TooManyJobs } from '../accounts/credit-problems.js';

/** The problems a job's commands raise; the API renders them, the OpenAPI document lists them. */
export const JobProblems = {
  notFound: defineProblem({
    slug: 'job-not-found',
    title: 'Not Found',
    status: 404,
    description:
      'No job has this id, or it belongs to the other mode (test jobs are visible only to test keys, ' +
      'live jobs to live keys).',
  }),
  resultTableNotFound: defineProblem({
    slug: 'job-result-table-not-found',
    title: 'Not Found',
    status: 404,
    description:
      'The job has no result file for this table: it did not generate it. ' +
      '`tables` lists the tables it has results for.',
  }),
  alreadyExists: defineProblem({
    slug: 'job-exists',
    title: 'Conflict',
    status: 409,
    description: 'A job with this id already exists.',
  }),
  finished: defineProblem({
    slug: 'job-finished',
    title: 'Conflict',
    status: 409,
    description: 'The job has already succeeded, failed or been cancelled; a finished job cannot be cancelled.',
  }),
  notClaimable: defineProblem({
    slug: 'job-not-claimable',
    title: 'Conflict',
    status: 409,
    description: 'The job is held by a live lease of another runner, or is no longer waiting to run.',
  }),
  leaseLost: defineProblem({
    slug: 'job-lease-lost',
    title: 'Conflict',
    status: 409,
    description: 'The runner no longer holds the job: its lease expired and another runner took the job over.',
  }),
  notSucceeded: defineProblem({
    slug: 'job-results-unavailable',
    title: 'Conflict',
    status: 409,
    description: 'The job has no results (yet): results exist only once it has succeeded.',
  }),
  resultsExpired: defineProblem({
    slug: 'job-results-expired',
    title: 'Gone',
    status: 410,
    description: 'The job succeeded, but its result files were removed after the retention period; run the job again.',
  }),
  tooManyJobs: TooManyJobs,
  writeFailed: defineProblem({
    slug: 'job-write-failed',
    title: 'Internal Server Error',
    status: 500,
    description:
      'A result file could not be written (disk full or an I/O error); the partial files were removed and the ' +
      'reserved credits released.',
  }),
  generationFailed: defineProblem({
    slug: 'job-generation-failed',
    title: 'Internal Server Error',
    status: 500,
    description:
      'The generator of a table failed (it threw, hung or ran out of memory); the reserved credits were released.',
  }),
};
