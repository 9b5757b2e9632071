import type { JsonSchema } from '../../core/json-schema.js';
import { MAX_REPORTED_ERRORS, MAX_VALUES_CHECKED_IN_FULL } from '../../core/bounded-validation.js';

/** What `errors_truncated` means, wherever an answer lists errors. */
export const TRUNCATED =
  `Present (true) when \`errors\` is not the whole list: ` +
  `more than ${MAX_REPORTED_ERRORS} were found (\`errors_total\` says how many), ` +
  `or a document of more than ${MAX_VALUES_CHECKED_IN_FULL.toLocaleString('en')} ` +
  `values was checked until its first error (no \`errors_total\`).`;

/** RFC 9457 problem details, as every error response carries them. */
export const problemSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    request_id: { type: 'string' },
    // Members the interface specification fixes for `insufficient-credits`.
    credits_required: {
      type: 'integer',
      minimum: 0,
      description: '`insufficient-credits`: the credits the request needs.',
    },
    credits_available: {
      type: 'integer',
      minimum: 0,
      description: '`insufficient-credits`: the credits remaining on the account.',
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pointer', 'message'],
        properties: {
          pointer: {
            type: 'string',
            description: 'A JSON pointer (RFC 6901) into the part of the request named by `in`, or into the config.',
          },
          message: { type: 'string' },
          in: { enum: ['body', 'query', 'path'] },
          line: {
            type: 'integer',
            minimum: 1,
            description: 'Where the error is in the text of a JSON body or a YAML config (1-based).',
          },
          column: { type: 'integer', minimum: 1 },
        },
      },
      description: `Each failing field, at most ${MAX_REPORTED_ERRORS}.`,
    },
    errors_truncated: { const: true, description: TRUNCATED },
    errors_total: {
      type: 'integer',
      minimum: 1,
      description:
        'With `errors_truncated`: how many errors were found, when the document was checked for all of them.',
    },
  },
};

/** Query parameters of every list. */
export const listQuery = {
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Items per page.' },
    cursor: { type: 'string', minLength: 1, maxLength: 512, description: 'The `next_cursor` of the previous page.' },
  },
};

export interface ListQuery {
  limit: number;
  cursor?: string;
}

/** The shape of every list: `{ data, has_more, next_cursor }`. */
export function pageSchema(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'has_more', 'next_cursor'],
    additionalProperties: false,
    properties: {
      data: { type: 'array', items: item },
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'] },
    },
  };
}
