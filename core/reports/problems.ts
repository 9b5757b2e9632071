import { defineProblem } from '../problems.js';

export const ReportProblems = {
  notFound: defineProblem({
    slug: 'job-report-not-found',
    title: 'Not Found',
    status: 404,
    description: 'The job succeeded before conformance reports were made: it has its files but no report.',
  }),
};
