import { defineProblem } from '../../core/problems.js';

/** The problems the HTTP layer itself raises, before or around any route's own work. */
export const HttpProblems = {
  unauthorized: defineProblem({
    slug: 'unauthorized',
    title: 'Unauthorized',
    status: 401,
    description:
      'The Authorization header is missing, is not `Bearer <key>`, or names a key that is unknown or revoked. ' +
      'Keys are accepted in that header only, never in the query string.',
  }),
  forbidden: defineProblem({
    slug: 'missing-scope',
    title: 'Forbidden',
    status: 403,
    description: 'The key lacks the scope this operation needs; `required_scope` names it.',
  }),
  routeNotFound: defineProblem({
    slug: 'route-not-found',
    title: 'Not Found',
    status: 404,
    description: 'No operation has this path; GET /v1/openapi.json lists them all.',
  }),
  methodNotAllowed: defineProblem({
    slug: 'method-not-allowed',
    title: 'Method Not Allowed',
    status: 405,
    description: 'The path exists but not with this method; the `Allow` header lists the methods it has.',
  }),
  malformedRequest: defineProblem({
    slug: 'malformed-request',
    title: 'Bad Request',
    status: 400,
    description:
      'The request is not valid HTTP/1.1 (a control character in a header, ' +
      'a broken request line: the connection is then closed; an HTTP/1.1 request without Host).',
  }),
  headersTooLarge: defineProblem({
    slug: 'headers-too-large',
    title: 'Request Header Fields Too Large',
    status: 431,
    description: 'The request headers exceed the limit of the server; the connection is closed.',
  }),
  expectationFailed: defineProblem({
    slug: 'expectation-failed',
    title: 'Expectation Failed',
    status: 417,
    description: 'The request has an `Expect` header other than `100-continue`, the only expectation the server meets.',
  }),
  requestTimeout: defineProblem({
    slug: 'request-timeout',
    title: 'Request Timeout',
    status: 408,
    description:
      'The request was not received in time (its headers within 60 s, ' +
      'all of it within 300 s); the connection is closed.',
  }),
  payloadTooLarge: defineProblem({
    slug: 'payload-too-large',
    title: 'Payload Too Large',
    status: 413,
    description: 'The request body exceeds the limit of the operation (`limit_bytes`).',
  }),
  unsupportedMediaType: defineProblem({
    slug: 'unsupported-media-type',
    title: 'Unsupported Media Type',
    status: 415,
    description:
      'The Content-Type is missing or not one the operation reads (`supported` lists them), ' +
      'or the body has a Content-Encoding (`Accept-Encoding: identity`): bodies are UTF-8, uncompressed.',
  }),
  malformedJson: defineProblem({
    slug: 'malformed-json',
    title: 'Bad Request',
    status: 400,
    description: 'The body is not well-formed JSON.',
  }),
  invalidEncoding: defineProblem({
    slug: 'invalid-encoding',
    title: 'Bad Request',
    status: 400,
    description: 'The body is not valid UTF-8.',
  }),
  nestingTooDeep: defineProblem({
    slug: 'nesting-too-deep',
    title: 'Bad Request',
    status: 400,
    description: 'The JSON body nests arrays and objects deeper than `max_depth` levels.',
  }),
  reservedMember: defineProblem({
    slug: 'reserved-member',
    title: 'Bad Request',
    status: 400,
    description:
      'The JSON body has a member named `__proto__`, which no document of this API uses; `pointer` says where.',
  }),
  invalidText: defineProblem({
    slug: 'invalid-text',
    title: 'Bad Request',
    status: 400,
    description:
      'A string or member name in the JSON body holds U+0000 or a lone surrogate, ' +
      'which no field of this API takes; `pointer` says where.',
  }),
  invalidIdempotencyKey: defineProblem({
    slug: 'invalid-idempotency-key',
    title: 'Bad Request',
    status: 400,
    description:
      'The Idempotency-Key header must be 1 to 255 visible ASCII ' +
      'characters (optionally as a quoted structured-field string).',
  }),
  rateLimited: defineProblem({
    slug: 'rate-limited',
    title: 'Too Many Requests',
    status: 429,
    description:
      "The account's tier allows this many requests per second; `Retry-After` says in how many whole seconds to retry.",
  }),
  notReady: defineProblem({
    slug: 'not-ready',
    title: 'Service Unavailable',
    status: 503,
    description:
      'The instance is starting or shutting down, or its event store does not answer (within 2 s); ' +
      'another instance, or this one shortly, will serve the request.',
  }),
};
