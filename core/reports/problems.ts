import { defineProblem } from '../problems.js';

export const ReportProblems = {
  notFound: defineProblem({
    slug: 'job-report-not-found',
    title: 'Not Found',
    status: 404,
    description:
      'The job made no conformance report: its config turned it off (`output.report: false`), or it ' +
      'succeeded before reports existed. It has its files.',
  }),
};
