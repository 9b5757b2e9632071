import { defineProblem } from '../problems.js';
import { MAX_ENDPOINTS_PER_MODE } from './event-types.js';

/** The problems webhook endpoints and deliveries raise; the API renders them, the OpenAPI document lists them. */
export const WebhookProblems = {
  urlRefused: defineProblem({
    slug: 'webhook-url-refused',
    title: 'Bad Request',
    status: 400,
    description:
      'The webhook URL may not be sent to: not http(s), credentials in it, a host that does not resolve, or a ' +
      'host that resolves to an address of a private, loopback, link-local, metadata or other special-purpose ' +
      'network. `detail` gives the reason. Deliveries are checked again at every attempt.',
  }),
  notFound: defineProblem({
    slug: 'webhook-not-found',
    title: 'Not Found',
    status: 404,
    description:
      'No webhook endpoint has this id in the mode of the key asking, or it was deleted ' +
      '(test endpoints are visible only to test keys, live ones to live keys).',
  }),
  limitReached: defineProblem({
    slug: 'webhook-endpoint-limit',
    title: 'Conflict',
    status: 409,
    description: `An account has at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode; delete one first.`,
  }),
  alreadyExists: defineProblem({
    slug: 'webhook-exists',
    title: 'Conflict',
    status: 409,
    description: 'A webhook endpoint or delivery with this id already exists.',
  }),
  notClaimable: defineProblem({
    slug: 'webhook-delivery-not-claimable',
    title: 'Conflict',
    status: 409,
    description: 'The delivery is finished, not due yet, or its attempt is held by another instance.',
  }),
  claimLost: defineProblem({
    slug: 'webhook-delivery-claim-lost',
    title: 'Conflict',
    status: 409,
    description: 'Another instance took the delivery attempt over; its outcome is the one recorded.',
  }),
};
