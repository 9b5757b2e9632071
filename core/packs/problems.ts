import { defineProblem } from '../problems.js';

/** The problems of the pack registry: a sector that no loaded pack provides. */
export const PackProblems = {
  unknownSector: defineProblem({ slug: 'unknown-sector', title: 'Bad Request', status: 400, description: 'The request names a sector that no loaded pack provides; GET /v1/catalog lists the sectors.' }),
};
