import { defineProblem } from '../problems.js';

/** The problems the config machinery raises. Each carries `errors`: [{ pointer, message, line?, column? }]. */
export const ConfigProblems = {
  invalidYaml: defineProblem({
    slug: 'invalid-yaml',
    title: 'Bad Request',
    status: 400,
    description:
      'The YAML cannot be read: a syntax error, several documents, a custom tag, duplicate keys, ' +
      'or aliases that expand too far (billion laughs). `errors` gives each with its line and column.',
  }),
  yamlTooLarge: defineProblem({
    slug: 'yaml-too-large',
    title: 'Payload Too Large',
    status: 413,
    description: 'A YAML config may not exceed 1 MiB.',
  }),
  invalidConfig: defineProblem({
    slug: 'invalid-config',
    title: 'Bad Request',
    status: 400,
    description:
      'The config fails its JSON Schema (GET /v1/configs/schema) or names a sector, table, ' +
      'column or option the catalog does not have. `errors` lists each with its JSON pointer and, for YAML, ' +
      'its line and column.',
  }),
  invalidOverlay: defineProblem({
    slug: 'invalid-overlay',
    title: 'Bad Request',
    status: 400,
    description:
      'The overlay is not a partial config: `errors` lists each failing field with its JSON pointer (and line and ' +
      'column for YAML).',
  }),
};
