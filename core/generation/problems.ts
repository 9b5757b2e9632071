import { defineProblem } from '../problems.js';

/** The problems the engine raises: a plan it refuses (400), or a chunk whose generator failed (500). */
export const GenerationProblems = {
  unknownSector: defineProblem({
    slug: 'unknown-sector',
    title: 'Bad Request',
    status: 400,
    description: 'The request names a sector that no loaded pack provides; GET /v1/catalog lists the sectors.',
  }),
  unknownTable: defineProblem({
    slug: 'unknown-table',
    title: 'Bad Request',
    status: 400,
    description:
      "The request names a table that the sector's pack does not have; the sector's catalog entry lists its tables.",
  }),
  invalidOptions: defineProblem({
    slug: 'invalid-table-options',
    title: 'Bad Request',
    status: 400,
    description: "A table option is unknown, or its value fails the option's JSON Schema published in the catalog.",
  }),
  invalidOverride: defineProblem({
    slug: 'invalid-column-override',
    title: 'Bad Request',
    status: 400,
    description:
      "A per-column override names an unknown column, a parameter the column's type does not accept, " +
      'or values its type refuses.',
  }),
  unknownLocale: defineProblem({
    slug: 'unknown-locale',
    title: 'Bad Request',
    status: 400,
    description: 'The locale is not one the engine has data for (faker locale names such as en_GB, de, fr).',
  }),
  invalidPlan: defineProblem({
    slug: 'invalid-plan',
    title: 'Bad Request',
    status: 400,
    description:
      'The tables, row counts or seed cannot form a plan (a negative or excessive row count, ' +
      'a table named twice, a child with no parent row).',
  }),
  generationFailed: defineProblem({
    slug: 'generation-failed',
    title: 'Internal Server Error',
    status: 500,
    description:
      "A sector pack's generator failed (threw, exceeded the time limit, or ran out of memory); " +
      'the detail names the pack, table and chunk.',
  }),
};
